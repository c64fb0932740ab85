import Testing

@testable import DiagPredicate

@Suite("Errors say what was wrong and where (PREDICATES.md §8)")
struct ErrorTests {
    private func expectError(
        _ text: String, _ kind: PredicateError.Kind, containing fragment: String, column: Int? = nil,
        variables: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error = parseError(text, variables: variables, sourceLocation: sourceLocation) else { return }
        #expect(error.kind == kind, "\(text): \(error.message)", sourceLocation: sourceLocation)
        if !fragment.isEmpty {
            #expect(error.message.contains(fragment), "\(text): \(error.message)", sourceLocation: sourceLocation)
        }
        if let column { #expect(error.column == column, "\(text): \(error)", sourceLocation: sourceLocation) }
    }

    @Test func caretRendering() throws {
        let error = try #require(parseError(#"process == "apsd" AND proces == "x""#))
        #expect(error.column == 23)
        #expect(error.offset == 22)
        #expect(error.description == """
            unknown field 'proces' — did you mean 'process'? (column 23)
              process == "apsd" AND proces == "x"
                                    ^
            """)
    }

    @Test func caretOnLaterLine() throws {
        let error = try #require(parseError("process == \"apsd\"\n  AND sender ==> 3"))
        #expect(error.line == 2)
        #expect(error.column == 16)
        #expect(error.description.hasSuffix("(line 2, column 16)\n    AND sender ==> 3\n                 ^"))
    }

    @Test func columnsCountCharacters() throws {
        let error = try #require(parseError(#"message == "héllo" AND é"#))
        #expect(error.column == 24)
    }

    @Test func missingOperand() {
        expectError(#"process =="#, .syntax, containing: "expected a string, number or field name after '=='")
        expectError(#"process == AND sender == "x""#, .syntax, containing: "after '=='")
        expectError(#"process"#, .syntax, containing: "alone is not a predicate")
        expectError(#""apsd""#, .syntax, containing: "alone is not a predicate")
        expectError("TRUE", .syntax, containing: "alone is not a predicate")
        expectError(#"process == "a" AND"#, .syntax, containing: "expected a comparison")
        expectError(#"AND process == "a""#, .syntax, containing: "expected a comparison before 'AND'")
        expectError(#"process == "a" sender == "b""#, .syntax, containing: "expected AND, OR")
        expectError(#""a" "b" == process"#, .syntax, containing: "expected an operator")
    }

    @Test func emptyInput() {
        expectError("", .syntax, containing: "empty predicate")
        expectError("  \n\t ", .syntax, containing: "empty predicate")
    }

    @Test func unknownFieldSuggests() {
        expectError(#"proces == "apsd""#, .unknownField, containing: "unknown field 'proces' — did you mean 'process'?", column: 1)
        expectError(#"Message == "x""#, .unknownField, containing: "did you mean 'message'?")
        expectError(#"zzzzzz == "x""#, .unknownField, containing: "fields are eventMessage")
        expectError(#"process == error"#, .unknownField, containing: "unknown field 'error'")
        expectError(#"metadata == "x""#, .unknownField, containing: "metadata.<key>")
    }

    @Test func unknownSymbol() {
        expectError("messageType == bogus", .unknownValue, containing: "unknown value 'bogus' for messageType: use default, info")
        expectError("type == bogus", .unknownValue, containing: "for type")
        expectError("messageType IN {error, nope}", .unknownValue, containing: "'nope'")
    }

    @Test func unterminatedString() {
        expectError(#"process == "apsd" AND sender == "CoreData"#, .invalidString, containing: "unterminated string starting at column 33", column: 33)
        expectError(#"process == 'apsd"#, .invalidString, containing: "close it with a '")
        expectError(#"process == "ends with backslash\"#, .invalidString, containing: "unterminated")
    }

    @Test func malformedEscapes() {
        expectError(#"message == "\x4""#, .invalidString, containing: "\\x needs exactly 2 hex digits")
        expectError(#"message == "\xZZ""#, .invalidString, containing: "malformed escape")
        expectError(#"message == "\u12""#, .invalidString, containing: "exactly 4 hex digits")
        expectError(#"message == "\uD83D""#, .invalidString, containing: "lone high surrogate")
        expectError(#"message == "\uD83Dx""#, .invalidString, containing: "lone high surrogate")
        expectError(#"message == "\uD83D\u0041""#, .invalidString, containing: "not a low surrogate")
        expectError(#"message == "\uDE00""#, .invalidString, containing: "lone low surrogate")
    }

    @Test func malformedNumbers() {
        for text in ["0x", "0b102", "0o8", "12abc", "1.2.3", "1e", "1e+", "99999999999999999999", "0x1FFFFFFFFFFFFFFFF", "1e999", "-9223372036854775809", "0b"] {
            expectError("processID == \(text)", .invalidNumber, containing: "")
        }
    }

    @Test func modifiers() {
        expectError(#"process ==[x] "a""#, .invalidOptions, containing: "unknown modifier [x]: use [c], [d], [n]")
        expectError(#"process ==[] "a""#, .invalidOptions, containing: "empty modifier []")
        expectError(#"process ==[cc] "a""#, .invalidOptions, containing: "repeats 'c'")
        expectError(#"process ==[c "a""#, .invalidOptions, containing: "not closed")
        expectError(#"process ==[ c] "a""#, .invalidOptions, containing: "no blanks")
        expectError(#"process ==[c ] "a""#, .invalidOptions, containing: "not closed")
        expectError(#"process ==[l] "a""#, .invalidOptions, containing: "unknown modifier [l]")
        expectError(#"process ==[1] "a""#, .invalidOptions, containing: "unknown modifier [1]")
        expectError(#"process ==[ci] "a""#, .invalidOptions, containing: "unknown modifier [ci]")
    }

    @Test func formatSpecifiersSuggestVariables() {
        expectError("process == %@", .formatSpecifier, containing: "write $NAME and pass --var NAME=VALUE", column: 12)
        expectError("%K == 'x'", .formatSpecifier, containing: "'%K'")
        expectError("processID == %d", .formatSpecifier, containing: "--var")
    }

    @Test func unboundVariable() {
        expectError("process == $PROC", .unboundVariable, containing: "$PROC is not bound: pass --var PROC=VALUE")
        expectError("process == $", .syntax, containing: "variable name after '$'")
    }

    @Test func unsupportedConstructs() {
        expectError("processID + 1 == 2", .unsupportedConstruct, containing: "arithmetic")
        expectError("processID * 2 == 2", .unsupportedConstruct, containing: "arithmetic")
        expectError("processID / 2 == 2", .unsupportedConstruct, containing: "arithmetic")
        expectError("processID ** 2 == 2", .unsupportedConstruct, containing: "arithmetic")
        expectError("processID == - 1", .unsupportedConstruct, containing: "arithmetic")
        expectError("processID == -processID", .unsupportedConstruct, containing: "arithmetic")
        expectError("count(process) == 1", .unsupportedConstruct, containing: "function calls")
        expectError("SUBQUERY(x, $y, $y == 1).@count > 0", .unsupportedConstruct, containing: "SUBQUERY")
        expectError("process.name == 'x'", .unsupportedConstruct, containing: "dotted key paths")
        expectError("metadata.a.b == 'x'", .unsupportedConstruct, containing: "one level")
        expectError("process[FIRST] == 'x'", .unsupportedConstruct, containing: "index expressions")
        expectError("process.@count == 1", .unsupportedConstruct, containing: "")
        expectError("@count == 1", .unsupportedConstruct, containing: "key-path operators")
        expectError("x := 1", .unsupportedConstruct, containing: "assignment")
        expectError("processID := 1", .unsupportedConstruct, containing: "assignment")
        expectError("process UTI-CONFORMS-TO 'public.text'", .unsupportedConstruct, containing: "UTI-CONFORMS-TO")
        expectError("process uti-equals 'public.text'", .unsupportedConstruct, containing: "UTI-EQUALS")
        expectError("CAST('x', 'NSDate') == 1", .unsupportedConstruct, containing: "CAST")
        expectError("(process) == 'x'", .unsupportedConstruct, containing: "parenthesised expressions")
        expectError("process == size", .unsupportedConstruct, containing: "#size")
        expectError("process == FIRST", .unsupportedConstruct, containing: "FIRST")
    }

    @Test func badOperatorsAndCharacters() {
        expectError("process === 'a'", .syntax, containing: "'===' is not an operator")
        expectError("process =~ 'a'", .syntax, containing: "MATCHES")
        expectError("process == 'a' & sender == 'b'", .syntax, containing: "single '&'")
        expectError("process == 'a' | sender == 'b'", .syntax, containing: "single '|'")
        expectError("process == 'a';", .syntax, containing: "unexpected character ';'")
        expectError("process == `a`", .syntax, containing: "unexpected character '`'")
        expectError("process ^ 'a'", .syntax, containing: "unexpected character '^'")
        expectError("process ~= 'a'", .syntax, containing: "unexpected character '~'")
        expectError("étrange == 'x'", .syntax, containing: "'é' (U+00E9)")
        expectError("process == 'a' == 'b'", .syntax, containing: "cannot be chained")
        expectError("processID < 1 < 2", .syntax, containing: "cannot be chained")
        expectError("process NOT IN {'a'}", .syntax, containing: "NOT IN is not an operator")
    }

    @Test func parenthesesAndAggregates() {
        expectError("()", .syntax, containing: "empty parentheses")
        expectError("(process == 'a'", .syntax, containing: "expected ')' to close the '(' at column 1")
        expectError("process == 'a')", .syntax, containing: "unbalanced ')'")
        expectError("process IN {'a',}", .syntax, containing: "no trailing comma")
        expectError("process IN {'a' 'b'}", .syntax, containing: "expected ',' or '}'")
        expectError("process IN {'a'", .syntax, containing: "expected ',' or '}'")
        expectError("process IN {,'a'}", .syntax, containing: "expected a string, number or field name after '{'")
        expectError("process IN {{'a'}}", .syntax, containing: "cannot be nested")
        expectError("processID BETWEEN {1}", .syntax, containing: "exactly two values")
        expectError("processID BETWEEN {1, 2, 3}", .syntax, containing: "exactly two values")
        expectError("processID BETWEEN 1", .syntax, containing: "exactly two values")
    }

    @Test func qualifierAlone() {
        expectError("ANY", .syntax, containing: "must be followed by a comparison")
        expectError("ANY == 1", .syntax, containing: "must be followed by a comparison")
    }

    @Test func invalidRegexIsAParseError() {
        expectError(#"message MATCHES "(unclosed""#, .invalidRegex, containing: "invalid regular expression", column: 17)
        expectError(#"message MATCHES "a{2,1}""#, .invalidRegex, containing: "")
        expectError(#"message MATCHES "[z-a]""#, .invalidRegex, containing: "")
        expectError(#"message MATCHES "(?x)abc # trailing comment""#, .invalidRegex, containing: "(?x) comment")
    }
}
