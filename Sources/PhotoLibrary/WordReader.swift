import ChildProcess
import Executors
import Foundation
import Imaging
import Storage
import Vocabulary

/// Reads the words in photos (a shop's sign, a receipt, a page) with Tesseract, so that search
/// finds them: in the background, one photo at a time, at the lowest priority, in a child process
/// with a deadline and a memory limit, and only where a cheap look says there may be text
/// (`TextLikelihood`). Each photo is read once per edition of the reader (`words_edition`, NULL
/// until read); servers sharing a library claim each photo before reading it (a claim lasts
/// `claimLease`, for a server that stops mid-read), so none is read twice at once.
public final class WordReader: FileWorking {
    let stores: LibraryStores
    let lane = BlockingExecutor(name: "words", threads: 1)
    let imaging: Imaging
    private let reading = BackgroundTally()

    /// Which reader read a photo's words (Tesseract 5 with its English model): a later one that
    /// reads better sets the column to NULL in its migration, and every photo is read again.
    static let edition = 1
    /// How long a claim keeps other servers from a photo.
    static let claimLease: TimeInterval = 300
    /// The size the photo is given to Tesseract at: a sign across a room still has letters a few
    /// dozen pixels high, and a 12-megapixel photo is read in a second, not ten.
    static let box = PixelSize(width: 2048, height: 2048)
    /// The size the cheap look sees.
    static let glance = PixelSize(width: 512, height: 512)
    static let deadline: Duration = .seconds(120)
    /// Tesseract's address space: its English model and a 2048-pixel page fit in a few hundred
    /// megabytes; a runaway read ends here, not in the machine's swap.
    static let memoryLimit = 2 << 30

    init(_ stores: LibraryStores, imaging: Imaging) {
        self.stores = stores
        self.imaging = imaging
    }

    /// What `readWords` has done so far, while it runs.
    public var work: BackgroundWork? { reading.work }

    /// The condition of `assets_awaiting_words` (migration 0025), which its rows are read by.
    static let awaitingWords = "media_type = 'public.image' AND words_edition IS NULL"

    /// Reads the words of every photo that awaits them, until none is left or the task is
    /// cancelled; answers how many it read. Nothing is read where Tesseract is not installed.
    @discardableResult
    public func readWords() async throws(LibraryError) -> Int {
        guard let tesseract = options.textReader, FileManager.default.isExecutableFile(atPath: tesseract) else { return 0 }
        let waiting = try await assets(where: Self.awaitingWords)
        guard waiting > 0 else { return 0 }
        reading.begin("Reading words in photos", total: waiting)
        defer { reading.end() }
        var done = 0
        while !Task.isCancelled, let (id, hash, format) = try await claimNext() {
            let words = await self.words(of: hash, format: format, tesseract: tesseract, subject: id)
            try await write(.cached) { connection throws(StorageError) in
                try connection.run(
                    "UPDATE assets SET picture_words = ?, words_edition = ?, words_claimed_at = NULL WHERE id = ?",
                    [words.isEmpty ? nil : words, Self.edition, id])
            }
            done += 1
            reading.advance(by: 1)
        }
        return done
    }

    /// The next photo awaiting its words that no other server holds, now this one's.
    private func claimNext() async throws(LibraryError) -> (String, String, ImageFormat)? {
        let now = Date().timeIntervalSince1970
        return try await write(.cached) { connection throws(StorageError) -> (String, String, ImageFormat)? in
            let free = "(words_claimed_at IS NULL OR words_claimed_at < ?)"
            let rows = try connection.query(
                "SELECT id, blob_hash, format FROM assets WHERE \(Self.awaitingWords) AND \(free) ORDER BY id LIMIT 8",
                [now - Self.claimLease])
            for row in rows {
                let id = try row.text("id")
                // The claim holds only if no other server's came first (PostgreSQL looks at the
                // row again once that server's transaction ends).
                guard
                    try connection.run("UPDATE assets SET words_claimed_at = ? WHERE id = ? AND \(free)", [now, id, now - Self.claimLease])
                        == 1
                else { continue }
                guard case .image(let format) = AssetFormat(rawValue: try row.text("format")) else {
                    throw StorageError(.corruptRow, "A row of the library is damaged: a photo of no image format.")
                }
                return (id, try row.text("blob_hash"), format)
            }
            return nil
        }
    }

    /// The words Tesseract is sure of in the photo `hash` names, "" for none (nor for a photo
    /// it could not read, which is said in the log).
    private func words(of hash: String, format: ImageFormat, tesseract: String, subject: String) async -> String {
        let page: String?
        do {
            page = try await files { [blobs, imaging, workFolder = stores.workFolder.path] () throws(StorageError) -> String? in
                let original = try blobs.localFile(hash)
                let rendered: [UInt8]
                do throws(ImagingError) {
                    let glance = try imaging.pixels(of: original, fittedTo: Self.glance)
                    guard TextLikelihood.mayHoldText(rgb: glance.rgb, width: glance.size.width) else { return nil }
                    let request = RenderRequest(box: Self.box, encoding: .jpeg(quality: 92))
                    rendered = try imaging.render(ImageFile(original, format: format), [request])[0].data
                } catch {
                    throw StorageError(.io, "The photo cannot be decoded for its words.", detail: "\(error)")
                }
                let path = workFolder + "/words-\(UUID().uuidString).jpg"
                guard FileManager.default.createFile(atPath: path, contents: Data(rendered)) else {
                    throw StorageError(.io, "A page for the word reader cannot be written.")
                }
                return path
            }
        } catch {
            options.log("words of \(subject): \(error)")
            return ""
        }
        guard let page else { return "" }
        defer { unlink(page) }
        var runner = ChildProcess(timeout: Self.deadline)
        runner.niceness = 19
        do {
            let output = try await runner.run(
                executable: "/usr/bin/prlimit",
                arguments: ["--as=\(Self.memoryLimit)", tesseract, page, "stdout", "-l", "eng", "--psm", "3", "tsv"],
                environment: ["LC_ALL": "C", "OMP_THREAD_LIMIT": "1"], stdoutLimit: 4 << 20)
            guard output.succeeded else {
                options.log("words of \(subject): tesseract exited \(output.status): \(output.stderrTail.suffix(300))")
                return ""
            }
            return RecognizedText(tsv: String(decoding: output.stdout, as: UTF8.self)).words
        } catch {
            options.log("words of \(subject): tesseract did not finish: \(error)")
            return ""
        }
    }
}
