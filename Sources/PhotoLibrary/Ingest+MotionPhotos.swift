import Foundation
import Imaging
import Storage

extension Library {
    /// The length of the movie a Google Motion Photo carries at its end, when the file is one:
    /// its XMP says so, and the bytes there begin an MP4.
    static func embeddedMovieLength(_ file: FileHandle) -> Int? {
        guard let end = try? file.seekToEnd(), let size = Int(exactly: end), (try? file.seek(toOffset: 0)) != nil,
            let head = try? file.read(upToCount: MotionPhoto.searchedBytes),
            let length = MotionPhoto.announcedLength(head: Array(head), fileSize: size),
            (try? file.seek(toOffset: UInt64(size - length))) != nil, let start = try? file.read(upToCount: 8),
            MotionPhoto.startsAMovie(Array(start))
        else { return nil }
        return length
    }

}

extension Ingest {
    /// Imports a motion photo's movie as the motion of its still, as a Live Photo's movie is:
    /// a copy of the still's last `length` bytes (the still's original stays whole), probed and
    /// kept as any movie, in no listing. A movie that is no movie after all leaves the still a
    /// still; the log says why.
    func importEmbeddedMovie(of still: Asset, length: Int) async {
        do {
            let arrival = try await arrive { [blobs, staging] () throws(LibraryError) -> StagedFile in
                do throws(StorageError) {
                    return try Self.copyMovie(of: still, length: length, from: blobs, into: staging)
                } catch {
                    throw LibraryError(error)
                }
            }
            let name = (still.originalFilename.map { ($0 as NSString).deletingPathExtension } ?? still.id) + ".mp4"
            // Imported, whatever the still's source: an unsaved capture's expiry is its still's to decide.
            _ = try await ingest(
                arrival, originalFilename: name, source: .imported, saveToCameraRoll: false, livePhotoOf: still.id,
                owner: still.owner)
        } catch {
            options.log("the movie of motion photo \(still.id) was not imported: \(error)")
        }
    }

    /// A staged copy of the still's last `length` bytes.
    private static func copyMovie(of still: Asset, length: Int, from blobs: any BlobStore, into staging: StagingArea)
        throws(StorageError) -> StagedFile
    {
        let original = try blobs.localFile(still.blobHash)
        let (path, fd) = try staging.makeTemporaryFile(suffix: ".mp4")
        let output = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            guard let input = FileHandle(forReadingAtPath: original) else {
                throw StorageError(.io, "The original cannot be read.")
            }
            defer { try? input.close() }
            let end = try input.seekToEnd()
            guard end >= UInt64(length) else { throw StorageError(.io, "The original is shorter than its movie.") }
            try input.seek(toOffset: end - UInt64(length))
            try output.write(contentsOf: input.readToEnd() ?? Data())
            try output.close()
        } catch let error as StorageError {
            unlink(path)
            throw error
        } catch {
            unlink(path)
            throw StorageError(.io, "The motion photo's movie cannot be copied: \(error)")
        }
        do throws(StorageError) {
            return try staging.stage(adopting: path)
        } catch {
            unlink(path)
            throw error
        }
    }
}
