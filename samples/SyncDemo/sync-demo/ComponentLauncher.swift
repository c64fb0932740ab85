import Foundation
import SyncDemoKit

/// Starts the components as child processes and waits for them.
struct ComponentLauncher {
    let binFolder: URL
    let layout: WorkLayout

    /// A running component, and its stdout when captured.
    final class Child {
        let name: String
        let process: Process
        let output: Pipe?
        init(name: String, process: Process, output: Pipe?) {
            self.name = name
            self.process = process
            self.output = output
        }
    }

    /// The folder of the running executable, where SwiftPM puts its sibling products.
    static func ownFolder() -> URL {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).deletingLastPathComponent()
    }

    func start(_ component: DemoComponent, _ arguments: [String], capture: Bool = false) throws -> Child {
        let executable = binFolder.appendingPathComponent(component.rawValue)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw DemoError("\(executable.path) is not an executable; build the sample (swift build) or pass --bin DIR")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--work", layout.root.path] + arguments
        let pipe = capture ? Pipe() : nil
        if let pipe { process.standardOutput = pipe } else { process.standardOutput = FileHandle.standardError }
        try process.run()
        StandardError.write("sync-demo: started \(component.rawValue) (pid \(process.processIdentifier)) \(arguments.joined(separator: " "))\n")
        return Child(name: component.rawValue, process: process, output: pipe)
    }

    /// Waits until a component made `path` (its socket, a folder: its sign of being ready), or
    /// fails if it exited first.
    func waitForPath(_ path: String, of child: Child, timeout: Double = 30) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !FileManager.default.fileExists(atPath: path) {
            guard child.process.isRunning else { throw DemoError("\(child.name) exited (status \(child.process.terminationStatus)) before it was ready") }
            guard Date() < deadline else { throw DemoError("\(child.name) was not ready within \(Int(timeout)) s (no \(path))") }
            usleep(20_000)
        }
    }

    /// Waits for a device to exit and returns the `KEY=value` lines it printed.
    func finish(_ child: Child) throws -> [String: String] {
        let data = child.output?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        child.process.waitUntilExit()
        guard child.process.terminationStatus == 0 else {
            throw DemoError("\(child.name) failed with status \(child.process.terminationStatus)")
        }
        var values: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    /// Asks each service to shut down (SIGTERM if it does not answer) and waits; returns the
    /// failures, in words.
    func stop(_ services: [Child]) -> [String] {
        var failures: [String] = []
        for service in services {
            guard let component = DemoComponent(rawValue: service.name) else { continue }
            do { _ = try MessageClient.send(DemoMessage("shutdown"), to: layout.socket(component), connectTimeout: 2) } catch {
                failures.append("\(service.name) did not take the shutdown request: \(error)")
                if service.process.isRunning { service.process.terminate() }
            }
        }
        for service in services {
            service.process.waitUntilExit()
            if service.process.terminationStatus != 0 {
                failures.append("\(service.name) exited with status \(service.process.terminationStatus)")
            }
        }
        return failures
    }
}
