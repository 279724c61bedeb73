import Imaging
import TestSupport
import Testing
import Vocabulary

/// A file's format is read from its header once (`ImageFile`): what probes, checks and renders
/// it afterwards trust the format they are given and do not read the header again.
@Suite struct ImageFileTests {
    static let photo = "photos/exifsamples__Canon_40D.jpg"

    @Test func aFileIsSniffedOnceAndThenTakenAsItWasNamed() throws {
        let imaging = try Imaging()
        let path = Corpus.path(Self.photo)
        let sniffed = try ImageFile(path)
        #expect(sniffed.format == .jpeg)
        #expect(try imaging.probe(sniffed).width == 100)
        // Named as what it is not, the file goes to that format's loader, which refuses it:
        // nothing read its header again to find it out.
        #expect(throws: ImagingError.self) { try imaging.probe(ImageFile(path, format: .png)) }
        #expect(throws: ImagingError.self) {
            try imaging.render(
                ImageFile(path, format: .png), [RenderRequest(box: PixelSize(width: 64, height: 64), encoding: .webp(quality: 80))])
        }
    }

    @Test func aFileThatIsNoImageIsRefusedWhenSniffed() {
        #expect(throws: ImagingError(.unsupportedType, "The file is not a JPEG, PNG, WebP, GIF, HEIF, AVIF or TIFF image.")) {
            try ImageFile(Corpus.path("videos/androidx-media__bear-vp9.webm"))
        }
    }
}
