// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Diagnostics",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "diag", targets: ["diag"]),
        .executable(name: "diagd", targets: ["diagd"]),
        .library(name: "DiagClient", targets: ["DiagClient"]),
    ],
    targets: [
        // C libraries from Debian's packages; each is imported by exactly one Swift target.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libarchive (Debian's libarchive-dev for the headers, libarchive13 at run time), opened
        // by the bundle commands only (CArchive.h says why).
        .target(name: "CArchive"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libpq (Debian's libpq-dev for the header, libpq5 at run time), opened by `diag fleet` only.
        .target(name: "CLibPQ"),
        // GNU libmicrohttpd (Debian's libmicrohttpd-dev) for diagd's OTLP/HTTP receiver: a
        // maintained HTTP/1.1 server (chunked bodies, 100-continue, header limits, idle timeouts)
        // rather than one written here; imported by DiagOTLP only, so only diagd links it.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // glibc's epoll and eventfd headers, which the Glibc module leaves out; diagd's event loop
        // (DiagIngest) imports it. Nothing to install or link: they are libc6's.
        .systemLibrary(name: "CEpoll"),
        // ICU's regex C API (Debian's libicu-dev for the headers, libicu72 at run time), loaded on
        // first use by DiagPredicate for the MATCHES patterns its linear engine does not cover:
        // unlike NSRegularExpression it reports when ICU gives up (CICU.h says why).
        .target(name: "CICU"),

        // What every program agrees on to find and talk to the others: the default store and
        // socket paths, the socket address, diagd's requests and replies, level modes, and the
        // one reader of sizes and durations.
        .target(name: "DiagProtocol", dependencies: ["DiagModel"]),
        // The record model: fields, levels, event types, metadata, JSON and timestamps.
        .target(name: "DiagModel", linkerSettings: [.linkedLibrary("m")]),
        // The log store: SQLite chunk files under Persist/ plus Info.json.
        // SQLite's allocations through per-thread caches of small blocks (Sources/CSQLiteAlloc/alloc.c).
        .target(name: "CSQLiteAlloc"),
        .target(name: "DiagStore", dependencies: ["DiagModel", "CSQLite", "CSQLiteAlloc"]),
        // Readers of real log formats, auto-detected from content.
        .target(name: "DiagImport", dependencies: ["DiagModel"]),
        // Deterministic realistic records from the four components.
        .target(name: "DiagGenerator", dependencies: ["DiagModel"]),
        // NSPredicate format strings: lexer, parser, evaluator, SQL planner.
        .target(name: "DiagPredicate", dependencies: ["DiagModel", "CICU"]),
        // Apple's unified logs (tracev3, timesync, uuidtext, dsc), read on Linux; LZ4 in Swift.
        .target(name: "DiagAppleLog", dependencies: ["DiagModel"]),
        // Runs a predicate over any source (store, plain files): the plan in SQL, the rest in Swift;
        // `diag stats`' counts and report (DiagOutput's zones name its minutes).
        .target(name: "DiagQuery", dependencies: ["DiagModel", "DiagStore", "DiagImport", "DiagPredicate", "DiagAppleLog", "DiagOutput"]),
        // Message patterns: the online miner, its masks, the matcher and the diff of two sides.
        .target(name: "DiagPatterns", dependencies: ["DiagModel"]),
        // `log show` output styles.
        .target(name: "DiagOutput", dependencies: ["DiagModel"]),
        // Argument parsing and help in the style of swift-argument-parser.
        .target(name: "DiagCommandLine"),
        // Forwarding records to other pipelines: RFC 5424 over TCP (rsyslog), OTLP/HTTP JSON;
        // store-and-forward cursors kept in the store; the encodings behind `diag export`.
        .target(name: "DiagForward", dependencies: ["DiagModel", "DiagStore", "DiagPredicate", "CZlib"]),
        // The OTLP/HTTP sink, through URLSession: only diagd links it, because FoundationNetworking
        // brings libcurl and its twenty libraries into every process that links it (and `diag`'s
        // start-up time is part of every query's).
        .target(name: "DiagForwardHTTP", dependencies: ["DiagForward", "DiagModel"]),
        // The ingestion daemon's server side.
        .target(name: "DiagIngest", dependencies: ["DiagModel", "DiagStore", "DiagPredicate", "DiagForward", "DiagProtocol", "CEpoll"]),
        // diagd's OTLP/HTTP logs receiver (`--otlp-http`): libmicrohttpd, the protobuf and JSON
        // decoders, the mapping back to records. Linked by diagd only: `diag` starts without it.
        .target(name: "DiagOTLP", dependencies: ["DiagIngest", "DiagForward", "DiagModel", "CMicroHTTPD"]),
        // What components link to log; no C dependency.
        .target(name: "DiagClient", dependencies: ["DiagModel", "DiagProtocol"]),
        // Bundles: tar archives through libarchive, manifests, summaries, report.
        .target(name: "DiagBundle", dependencies: ["DiagModel", "DiagStore", "DiagQuery", "DiagOutput", "DiagPredicate", "DiagProtocol", "DiagPatterns", "CArchive"]),
        // Many bundles in PostgreSQL: loading, the predicate translated to PostgreSQL SQL, stats.
        .target(name: "DiagFleet", dependencies: ["DiagModel", "DiagStore", "DiagPredicate", "DiagQuery", "DiagOutput", "DiagBundle", "CLibPQ"]),
        // The `diag` commands.
        .target(name: "DiagCLI", dependencies: [
            "DiagModel", "DiagStore", "DiagImport", "DiagGenerator", "DiagPredicate",
            "DiagQuery", "DiagOutput", "DiagCommandLine", "DiagClient", "DiagBundle",
            "DiagForward", "DiagFleet", "DiagProtocol", "DiagPatterns", "DiagAppleLog",
        ]),
        // Linked with the Swift runtime and Foundation inside (as `--static-swift-stdlib` does):
        // resolving their symbols across thirty shared libraries took about 5 ms of every run,
        // a quarter of a narrow query's wall time. diagd cannot: FoundationNetworking needs libcurl.
        .executableTarget(name: "diag", dependencies: ["DiagCLI"], linkerSettings: [
            // Our modules are compiled against the shared Foundation, whose module does not name
            // the static archives under it; the group lets the linker find them in any order.
            // libstdc++ and libgcc are linked in too (Link/libstdc++.so says why and how);
            // ICU's C++ needs libstdc++ again after it, hence `-lstdc++` inside the group.
            // Not position-independent (`-no-pie`): the loader then has none of the 78,000
            // relative relocations of the static runtime to apply, nor their pages to copy
            // (`diag --version` 2.3 -> 1.5 ms of CPU, 465 -> 243 page faults). The price is a
            // fixed address for diag's own code and data; the shared libraries (SQLite, and
            // libarchive and libpq opened later) and the heap and stacks are still randomised,
            // and diagd, the long-running daemon that reads other processes' input, stays PIE.
            .unsafeFlags([
                "-static-stdlib", "-L", Context.packageDirectory + "/Link", "-Xclang-linker", "-static-libgcc", "-Xclang-linker", "-no-pie",
                "-Xlinker", "--start-group",
                "-lFoundation", "-lFoundationEssentials", "-lFoundationInternationalization", "-lCoreFoundation",
                "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections", "-lstdc++", "-Xlinker", "--end-group",
            ]),
        ]),
        .executableTarget(name: "diagd", dependencies: ["DiagIngest", "DiagCommandLine", "DiagForward", "DiagForwardHTTP", "DiagProtocol", "DiagOTLP", "DiagStore"]),
        // Load client and bare-SQLite reference for the ingestion benchmark.
        .executableTarget(name: "diag-bench-ingest", dependencies: ["DiagModel", "DiagStore", "DiagClient", "DiagGenerator", "DiagProtocol", "DiagForward"]),

        // The sample sync system: four real processes logging through DiagClient into diagd.
        .target(name: "SyncDemoKit", dependencies: ["DiagClient", "DiagStore", "DiagModel", "DiagCommandLine"], path: "samples/SyncDemo/SyncDemoKit"),
        .executableTarget(name: "sync-core", dependencies: ["SyncDemoKit", "DiagClient", "DiagCommandLine"], path: "samples/SyncDemo/sync-core"),
        .executableTarget(name: "scheduler", dependencies: ["SyncDemoKit", "DiagClient", "DiagCommandLine"], path: "samples/SyncDemo/scheduler"),
        .executableTarget(name: "transport", dependencies: ["SyncDemoKit", "DiagClient", "DiagCommandLine"], path: "samples/SyncDemo/transport"),
        .executableTarget(name: "notifier", dependencies: ["SyncDemoKit", "DiagClient", "DiagCommandLine"], path: "samples/SyncDemo/notifier"),
        .executableTarget(name: "sync-demo", dependencies: ["SyncDemoKit", "DiagClient", "DiagCommandLine"], path: "samples/SyncDemo/sync-demo"),

        // Shared test helpers: temporary folders, running the built binaries.
        // Tests run the built `diag` as a process (`swift build --build-tests` and `swift test`
        // build every product first) and never link its module: a test bundle that did would
        // inherit the static Swift runtime above beside XCTest's shared one.
        // RunningDaemon, the one diagd harness, reads the store the daemon wrote (DiagStore).
        .target(name: "TestSupport", dependencies: ["DiagModel", "DiagGenerator", "DiagStore"], path: "Tests/TestSupport"),
        .testTarget(name: "DiagProtocolTests", dependencies: ["DiagProtocol", "TestSupport", "diagd"]),
        .testTarget(name: "DiagModelTests", dependencies: ["DiagModel", "TestSupport"]),
        .testTarget(name: "DiagStoreTests", dependencies: ["DiagStore", "DiagGenerator", "TestSupport"]),
        .testTarget(name: "DiagImportTests", dependencies: ["DiagImport", "TestSupport"]),
        .testTarget(name: "DiagGeneratorTests", dependencies: ["DiagGenerator", "TestSupport"]),
        .testTarget(name: "DiagPredicateTests", dependencies: ["DiagPredicate", "DiagGenerator", "DiagStore", "TestSupport"]),
        // Reference/ holds the Python driver of the independent reader ReferenceReaderTests runs.
        .testTarget(name: "DiagAppleLogTests", dependencies: ["DiagAppleLog", "TestSupport"], exclude: ["Reference"]),
        .testTarget(name: "DiagQueryTests", dependencies: ["DiagQuery", "DiagGenerator", "TestSupport"]),
        .testTarget(name: "DiagPatternsTests", dependencies: ["DiagPatterns", "TestSupport"]),
        .testTarget(name: "DiagOutputTests", dependencies: ["DiagOutput", "TestSupport"]),
        .testTarget(name: "DiagCommandLineTests", dependencies: ["DiagCommandLine", "TestSupport"]),
        .testTarget(name: "DiagIngestTests", dependencies: ["DiagIngest", "DiagClient", "TestSupport", "diagd"]),
        .testTarget(name: "DiagOTLPTests", dependencies: ["DiagForward", "DiagGenerator", "DiagStore", "TestSupport", "diagd"]),
        .testTarget(name: "DiagClientTests", dependencies: ["DiagClient", "TestSupport"]),
        .testTarget(name: "DiagBundleTests", dependencies: ["DiagBundle", "TestSupport"]),
        .testTarget(name: "DiagForwardTests", dependencies: ["DiagForward", "DiagForwardHTTP", "DiagGenerator", "DiagStore", "TestSupport", "diagd"]),
        // RecordFieldTableTests holds the fleet's, the store's, the predicate's and the NDJSON
        // writers' spellings of the record fields to DiagModel's table.
        .testTarget(name: "DiagFleetTests", dependencies: ["DiagFleet", "DiagGenerator", "DiagStore", "DiagPredicate", "DiagQuery", "TestSupport"], exclude: ["Expected"]),
        .testTarget(name: "DiagCLITests", dependencies: ["DiagCLI", "TestSupport", "diagd"], exclude: ["Expected"]),
        .testTarget(name: "SyncDemoTests", dependencies: [
            "SyncDemoKit", "TestSupport", "diagd", "sync-core", "scheduler", "transport", "notifier", "sync-demo",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
