import Foundation
import Imaging
import PhotoLibrary
import Vocabulary

/// Whether a crash a fuzz target found would reach the server. A file the server first decodes in
/// a child process (`ImportDecoder`) can only kill that child: the import refuses the file and the
/// server goes on. Any other crash is the server's, and a bug to fix.
enum Containment {
    static func check(_ files: [String]) async -> Int32 {
        var escaped = 0
        for file in files {
            let header = FileHandle(forReadingAtPath: file).flatMap { try? $0.read(upToCount: ImageFormat.sniffLength) }
            guard let format = header.flatMap({ ImageFormat.sniff($0) }), ImportDecoder.formatsDecodedApart.contains(format) else {
                print("escapes\t\(file)")
                escaped += 1
                continue
            }
            let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("cameraroll-contains-\(UUID().uuidString)").path
            let requests = [RenderRequest(box: PixelSize(width: 256, height: 256), encoding: .webp(quality: 80))]
            do throws(ImagingError) {
                _ = try await ImportDecoder.decodeApart(
                    ImportDecoder.runningThisProgram, file, requests, maxPixels: 200_000_000, outputPrefix: prefix
                ).collect()
                print("contained\t\(file)\taccepted")
            } catch {
                print("contained\t\(file)\t\(error.code): \(error.detail ?? error.message)")
            }
        }
        return escaped == 0 ? 0 : 1
    }
}
