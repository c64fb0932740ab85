import DiagModel
import Testing

@testable import DiagPredicate

@Suite("Lexical structure and literals (PREDICATES.md §2)")
struct LiteralAndKeywordTests {
    let apsd = record("it's \"quoted\"", process: "apsd", processID: 123)

    @Test func keywordsAreCaseInsensitive() {
        #expect(matches(#"process == "apsd" and processID == 123"#, apsd))
        #expect(matches(#"process == "x" Or processID == 123"#, apsd))
        #expect(matches(#"nOt process == "x""#, apsd))
        #expect(matches(#"process beginswith "ap""#, apsd))
        #expect(matches(#"process Like "a*""#, apsd))
        #expect(matches("truepredicate", apsd))
        #expect(!matches("FalsePredicate", apsd))
        #expect(matches("subsystem == nil", record(subsystem: nil)))
        #expect(matches("processID == yes", record(processID: 1)))
    }

    @Test func symbolicConnectives() {
        #expect(matches(#"process=="apsd"&&processID>100"#, apsd))
        #expect(matches(#"process=="x"||processID>100"#, apsd))
        #expect(matches(#"!(process=="x")"#, apsd))
        #expect(matches(#"! process == "x""#, apsd))
    }

    @Test func precedenceIsNotAndOr() {
        // a OR b AND c = a OR (b AND c)
        #expect(matches("TRUEPREDICATE OR FALSEPREDICATE AND FALSEPREDICATE", apsd))
        // NOT a AND b = (NOT a) AND b
        #expect(!matches("NOT TRUEPREDICATE AND TRUEPREDICATE", apsd))
        #expect(matches("NOT FALSEPREDICATE", apsd))
        #expect(matches("NOT NOT TRUEPREDICATE", apsd))
        #expect(matches("(TRUEPREDICATE OR FALSEPREDICATE) AND TRUEPREDICATE", apsd))
        #expect(!matches("(FALSEPREDICATE OR FALSEPREDICATE) AND TRUEPREDICATE", apsd))
    }

    @Test func quotesAndEscapes() {
        #expect(matches(#"message == 'it\'s "quoted"'"#, apsd))
        #expect(matches(#"message == "it's \"quoted\"""#, apsd))
        #expect(matches(#"message == "a\nb\tc\rd\\e""#, record("a\nb\tc\rd\\e")))
        #expect(matches(#"message == "\101\x42\X43\u0044\U0045""#, record("ABCDE")))
        #expect(matches(#"message == "\uD83D\uDE00""#, record("😀")), "a surrogate pair is one scalar")
        #expect(matches(#"message == "\q""#, record("\\q")), "other escapes are kept verbatim")
        #expect(matches(#"message == "\1""#, record("\\1")))
        #expect(matches(#"message == "%@ $NAME""#, record("%@ $NAME")), "specifiers inside quotes are text")
        #expect(matches("message == \"line one\nline two\"", record("line one\nline two")), "a raw newline is part of the string")
        #expect(matches(#"message == "\000x""#, record("\0x")))
    }

    @Test func numbers() {
        #expect(matches("processID == 123", apsd))
        #expect(matches("processID == 0x7B", apsd))
        #expect(matches("processID == 0X7b", apsd))
        #expect(matches("processID == 0o173", apsd))
        #expect(matches("processID == 0b1111011", apsd))
        #expect(matches("processID == 123.0", apsd))
        #expect(matches("processID == 12.3E1", apsd))
        #expect(matches("processID == 1.23e2", apsd))
        #expect(matches("processID > 9.2e-5", apsd))
        #expect(matches("processID > .5", apsd))
        #expect(matches("processID > 1.", apsd))
        #expect(matches("processID == 0123", apsd), "a leading zero is decimal")
        #expect(matches("processID > -1", apsd))
        #expect(matches("processID == -5", record(processID: -5)))
        #expect(matches("processID == -9223372036854775808", record(processID: .min)))
        #expect(matches("processID == 9223372036854775807", record(processID: .max)))
        #expect(matches("processID != 9223372036854775807.0", record(processID: .max)), "a double above Int64.max is not equal")
    }

    @Test func booleansAreOneAndZero() {
        #expect(matches("processID == TRUE", record(processID: 1)))
        #expect(matches("processID == false", record(processID: 0)))
        #expect(matches("processID == NO", record(processID: 0)))
        #expect(matches("metadata.flag == 1", record(metadata: ["flag": true])))
        #expect(matches("metadata.flag == YES", record(metadata: ["flag": true])))
    }

    @Test func selfAndNull() {
        #expect(matches("SELF != nil", apsd))
        #expect(!matches("SELF == NULL", apsd))
        #expect(matches("SELF == SELF", apsd))
        #expect(matches("NIL == NULL", apsd))
    }

    @Test func escapedKeyNames() {
        #expect(matches(#"#process == "apsd""#, apsd))
        #expect(matches("#size == nil", apsd), "log's size key, written #size")
        #expect(matches(#"metadata.#first == "x""#, record(metadata: ["first": "x"])))
    }

    @Test func whitespaceAndMultipleLines() {
        let text = "\n\t process = \"apsd\"\r\n\u{0B}\u{0C}  AND\n (processID == 123)  \n"
        #expect(matches(text, apsd))
    }

    @Test func variablesAreBound() {
        #expect(matches("process == $P", apsd, variables: ["P": "apsd"]))
        #expect(matches("processID == $PID", apsd, variables: ["PID": "123"]))
        #expect(matches("processID == $PID", apsd, variables: ["PID": "0x7B"]))
        #expect(!matches("process == $P", apsd, variables: ["P": "123"]), "a number-like value is a number")
        #expect(matches("messageType == $LEVEL", record(type: .error), variables: ["LEVEL": "error"]))
        #expect(matches("timestamp >= $START", apsd, variables: ["START": "2022-06-04 09:40:00"]))
    }

    @Test func qualifiers() {
        #expect(matches(#"ANY process == "apsd""#, apsd))
        #expect(matches(#"SOME process == "apsd""#, apsd))
        #expect(matches(#"ALL process == "apsd""#, apsd))
        #expect(!matches(#"NONE process == "apsd""#, apsd))
        #expect(matches(#"NONE process == "dasd""#, apsd))
        #expect(!matches(#"ANY subsystem != "x""#, record(subsystem: nil)), "a missing field is an empty collection")
        #expect(!matches(#"ALL subsystem != "x""#, record(subsystem: nil)), "ALL over a missing field is false")
        #expect(matches(#"NONE subsystem == "x""#, record(subsystem: nil)))
        #expect(matches(#"ANY metadata.tags == "b""#, record(metadata: ["tags": ["a", "b"]])))
        #expect(!matches(#"ALL metadata.tags == "b""#, record(metadata: ["tags": ["a", "b"]])))
        #expect(matches(#"metadata.tags CONTAINS "b""#, record(metadata: ["tags": ["a", "b"]])))
    }
}
