import Foundation

/// The sizes a manifest lists, read as soon as the manifest is unpacked, so that the entries
/// after it are held to them while they stream (`ArchiveExtractor`).
struct StreamedManifest {
    /// By path from the archive's root (`<top>/<path>`); the manifest itself is not listed.
    var sizes: [String: Int64] = [:]

    /// `manifest.json` at the root or in the one top folder.
    static func isManifest(_ components: [String]) -> Bool {
        components.last == BundleManifest.fileName && components.count <= 2
    }

    /// Nil when the file is not a manifest this version reads: the bundle's validation then
    /// refuses it with the reason, and until then only the general bounds apply.
    init?(file: URL, top: ArraySlice<String>) {
        guard let data = try? Data(contentsOf: file),
              let manifest = try? BundleManifest(jsonData: data, source: BundleManifest.fileName)
        else { return nil }
        let prefix = top.isEmpty ? "" : top.joined(separator: "/") + "/"
        for file in manifest.files {
            sizes[prefix + file.path] = max(sizes[prefix + file.path] ?? 0, file.size)
        }
    }
}
