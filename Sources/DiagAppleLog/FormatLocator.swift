/// Finds a tracepoint's format string (or signpost name) in the uuidtext or dsc file its flags
/// name, with the image it belongs to; when it cannot, says what is missing.
struct FormatLocator {
    let strings: ImageStrings
    let process: TraceV3Catalog.Process?

    struct Located {
        var format: String?
        var image: (uuid: AppleUUID, path: String)?
        var missing: String?
        /// The image that holds the string when it is known but its uuidtext file is not here:
        /// the record still names it (`senderImageUUID`), as other readers do.
        var imageUUID: AppleUUID?
        /// Where the call was in the sender image (`senderProgramCounter`): the tracepoint's
        /// program counter less the image's start, when the image is known.
        var senderOffset: UInt64?
    }

    func locate(_ tracepoint: FirehoseTracepoint, offset: UInt64) -> Located {
        if tracepoint.recordType == .loss { return Located(format: nil) }
        if tracepoint.isDynamic, offset == tracepoint.formatOffset { return Located(format: "%s", image: mainImage()) }
        let hexOffset = "0x" + String(offset, radix: 16)
        switch tracepoint.stringsFile {
        case .mainExecutable:
            guard let main = process?.mainUUID else { return Located(missing: "the process is not in the catalog, so its image is unknown (format at \(hexOffset))") }
            return fromUUIDText(main, offset: offset, role: "main executable").at(UInt64(tracepoint.programCounter))
        case .uuidRelative:
            guard let uuid = tracepoint.imageUUID else { return Located(missing: "no image UUID") }
            return fromUUIDText(uuid, offset: offset, role: "image").at(UInt64(tracepoint.programCounter))
        case .absolute:
            let pc = UInt64(tracepoint.loadAddressHigh ?? 0) << 32 | UInt64(tracepoint.programCounter)
            guard let image = process?.images.first(where: { pc >= $0.loadAddress && pc - $0.loadAddress < UInt64($0.size) }) else {
                return Located(missing: "no image of the process holds address 0x\(String(pc, radix: 16)) (format at \(hexOffset))")
            }
            return fromUUIDText(image.uuid, offset: offset, role: "image").at(pc - image.loadAddress)
        case .sharedCache, .largeSharedCache:
            guard let cache = process?.sharedCacheUUID else { return Located(missing: "the process has no shared cache in the catalog (format at \(hexOffset))") }
            switch strings.sharedCache(cache) {
            case .success(let dsc):
                guard let found = dsc.string(at: offset) else {
                    return Located(missing: "dsc file \(cache.hex) has no string at \(hexOffset)")
                }
                // The program counter is an offset into the shared cache, as the images' text is.
                let pc = UInt64(tracepoint.programCounter), image = found.image
                let inImage = pc >= image.textOffset && pc - image.textOffset < UInt64(image.textSize)
                return Located(format: found.format, image: (image.uuid, image.path), senderOffset: inImage ? pc - image.textOffset : nil)
            case .failure(let error):
                return Located(missing: "format string at \(hexOffset) of shared cache \(cache) not found (\(error.message))")
            }
        case nil:
            return Located(missing: "unknown strings file type")
        }
    }

    private func mainImage() -> (uuid: AppleUUID, path: String)? {
        guard let main = process?.mainUUID, case .success(let text) = strings.uuidText(main) else { return nil }
        return (main, text.imagePath)
    }

    private func fromUUIDText(_ uuid: AppleUUID, offset: UInt64, role: String) -> Located {
        switch strings.uuidText(uuid) {
        case .success(let text):
            guard let format = text.string(at: offset) else {
                return Located(image: (uuid, text.imagePath), missing: "uuidtext file of \(role) \(uuid) has no string at 0x\(String(offset, radix: 16))")
            }
            return Located(format: format, image: (uuid, text.imagePath))
        case .failure(let error):
            return Located(missing: "format string at 0x\(String(offset, radix: 16)) of \(role) \(uuid) not found (\(error.message))", imageUUID: uuid)
        }
    }
}

extension FormatLocator.Located {
    /// The same, with the caller's offset in its image (only once the image is known).
    func at(_ offset: UInt64) -> FormatLocator.Located {
        var located = self
        if located.image != nil || located.imageUUID != nil { located.senderOffset = offset }
        return located
    }
}
