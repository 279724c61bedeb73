internal import CWebP

/// The WebP container, through libwebp's own demuxer and muxer.
package enum WebPContainer {
    /// Whether the file's chunks stop before its RIFF header says they do. A file libwebpdemux
    /// cannot parse at all is not called truncated: the decoder refuses it.
    package static func isTruncated(_ file: ByteReader) -> Bool {
        guard let bytes = file.slice(at: 0, length: file.count), let base = bytes.baseAddress else { return false }
        var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        var state = WEBP_DEMUX_PARSING_HEADER
        guard let demuxer = WebPDemuxPartial(&data, &state) else { return state == WEBP_DEMUX_PARSING_HEADER }
        WebPDemuxDelete(demuxer)
        return state == WEBP_DEMUX_PARSING_HEADER || state == WEBP_DEMUX_PARSED_HEADER
    }

    /// libvips 8.14.1's webpsave writes an EXIF chunk even when told to strip metadata, so the
    /// container is rebuilt without its EXIF, XMP and ICC chunks (pixels are sRGB by then);
    /// libwebpmux clears the VP8X flags that announced them.
    package static func strippingMetadata(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { buffer -> [UInt8] in
            var input = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let mux = WebPMuxCreate(&input, 0) else { return bytes }
            defer { WebPMuxDelete(mux) }
            for chunk in ["EXIF", "XMP ", "ICCP"] {
                let status = WebPMuxDeleteChunk(mux, chunk)
                guard status == WEBP_MUX_OK || status == WEBP_MUX_NOT_FOUND else { return bytes }
            }
            var output = WebPData()
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let assembled = output.bytes else { return bytes }
            defer { WebPDataClear(&output) }
            return Array(UnsafeBufferPointer(start: assembled, count: output.size))
        }
    }
}
