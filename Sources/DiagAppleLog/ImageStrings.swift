import Foundation

/// The uuidtext and dsc files of an archive, read once each when first needed. A missing or
/// damaged file is remembered as missing (with why) so that each record can say what it lacks.
public final class ImageStrings {
    /// The folder holding `00`…`FF` and `dsc/`, if any was found.
    public let root: URL?
    let limits: AppleLogLimits
    private var uuidTexts: [AppleUUID: Result<UUIDTextFile, AppleLogError>] = [:]
    private var sharedCaches: [AppleUUID: Result<SharedCacheStrings, AppleLogError>] = [:]

    public init(root: URL?, limits: AppleLogLimits = AppleLogLimits()) {
        self.root = root
        self.limits = limits
    }

    func uuidText(_ uuid: AppleUUID) -> Result<UUIDTextFile, AppleLogError> {
        if let known = uuidTexts[uuid] { return known }
        let hex = uuid.hex
        let result: Result<UUIDTextFile, AppleLogError> = Result {
            guard let root else { throw AppleLogError("no uuidtext folder found beside the tracev3 file (for image \(uuid))") }
            let name = String(hex.prefix(2)) + "/" + String(hex.dropFirst(2))
            let path = root.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else { throw AppleLogError("no uuidtext file \(name)") }
            return try UUIDTextFile(bytes: try AppleFiles.read(path, limits: limits, what: "uuidtext file"), name: path)
        }.mapError { $0 as? AppleLogError ?? AppleLogError("\($0)") }
        uuidTexts[uuid] = result
        return result
    }

    func sharedCache(_ uuid: AppleUUID) -> Result<SharedCacheStrings, AppleLogError> {
        if let known = sharedCaches[uuid] { return known }
        let result: Result<SharedCacheStrings, AppleLogError> = Result {
            guard let root else { throw AppleLogError("no uuidtext folder found beside the tracev3 file (for shared cache \(uuid))") }
            let path = root.appendingPathComponent("dsc").appendingPathComponent(uuid.hex).path
            guard FileManager.default.fileExists(atPath: path) else { throw AppleLogError("no dsc file dsc/\(uuid.hex)") }
            return try SharedCacheStrings(bytes: try AppleFiles.read(path, limits: limits, what: "dsc file"), name: path)
        }.mapError { $0 as? AppleLogError ?? AppleLogError("\($0)") }
        sharedCaches[uuid] = result
        return result
    }
}

@available(*, unavailable)
extension ImageStrings: Sendable {}

/// Reading whole files with a size limit checked before the read.
enum AppleFiles {
    static func read(_ path: String, limits: AppleLogLimits, what: String) throws(AppleLogError) -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let missing = errno == ENOENT
            throw AppleLogError("\(what) \(path): \(String(cString: strerror(errno)))", unreadable: !missing)
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw AppleLogError("\(what) \(path): not a regular file") }
        guard Int(status.st_size) <= limits.maximumFileBytes else {
            throw AppleLogError("\(what) \(path): \(status.st_size) bytes (accepted: up to \(limits.maximumFileBytes))")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AppleLogError("\(what) \(path): cannot be opened", unreadable: true)
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limits.maximumFileBytes + 1) ?? Data()
            guard data.count <= limits.maximumFileBytes else {
                throw AppleLogError("\(what) \(path): over \(limits.maximumFileBytes) bytes")
            }
            return [UInt8](data)
        } catch let error as AppleLogError {
            throw error
        } catch {
            throw AppleLogError("\(what) \(path): \(error.localizedDescription)", unreadable: true)
        }
    }
}
