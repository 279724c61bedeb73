import ChildProcess
import Foundation
package import Imaging
import Vocabulary

/// The program that makes an import's first decode in a child process, and what it is run with
/// before its own arguments (`cameraroll decode-image`).
public struct ImageDecoderCommand: Sendable {
    public var executable: String
    public var arguments: [String]

    public init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }
}

/// An import's first decode of a file: structure checked, header probed, the import's outputs
/// rendered with `.refuseDamage`. For HEIF and AVIF it runs in a child process: libheif and the
/// codecs under it are C and C++ built with their assertions on, and a crafted file can make one
/// abort (libheif 1.19.7's `BitstreamRange` did, found by `make fuzz`), which in-process would
/// take every user's server down. The child dies instead, and the file is refused. Once a file
/// decoded whole in the child, later renders of it take the same decoder paths and run in-process.
package enum ImportDecoder {
    package static let formatsDecodedApart: Set<ImageFormat> = [.heif, .avif]

    /// The subcommand a program that decodes apart answers to.
    package static let command = "decode-image"

    /// This very program as the child: it must answer `command` by calling `childMain`.
    package static var runningThisProgram: ImageDecoderCommand {
        ImageDecoderCommand(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, arguments: [command])
    }

    /// A decode may take this long in the child (a 48-megapixel HEIC decodes in a few seconds).
    static let timeout: Duration = .seconds(120)

    package static func decode(
        _ imaging: Imaging, _ file: ImageFile, _ requests: [RenderRequest]
    ) throws(ImagingError) -> (info: ImageInfo, outputs: [RenderedImage]) {
        try imaging.checkStructure(file)
        let info = try imaging.probe(file)
        return (info, try imaging.render(file, requests, damage: .refuseDamage))
    }

    /// The same decode in a child process running `command`; its outputs come back through
    /// files beside `outputPrefix` (in the library's work folder), which `Apart.collect` reads
    /// back on the caller's lane, not on the cooperative pool this waits on; a failure removes them.
    package static func decodeApart(
        _ command: ImageDecoderCommand, _ path: String, _ requests: [RenderRequest], maxPixels: Int, outputPrefix: String
    ) async throws(ImagingError) -> Apart {
        var handedOver = false
        defer { if !handedOver { for index in requests.indices { unlink(outputFile(outputPrefix, index)) } } }
        let arguments = command.arguments + [path, outputPrefix, String(maxPixels), String(decoding: try encoded(requests), as: UTF8.self)]
        let output: ChildProcess.Output
        do {
            output = try await ChildProcess(timeout: timeout).run(
                executable: command.executable, arguments: arguments, environment: ["LC_ALL": "C"], stdoutLimit: 1 << 20)
        } catch .timedOut(let said) {
            throw ImagingError(.corrupt, unfinished, detail: "the image decoder ran out of time: \(said)")
        } catch {
            // Our own program that would not run: the server's failure, not the file's.
            throw ImagingError(.unreadable, "The image decoder could not be run.", detail: "\(error)")
        }
        if output.crashed {
            throw ImagingError(.corrupt, ImagingError.undecodable, detail: "the image decoder crashed: \(output.stderrTail)")
        }
        guard let report = try? JSONDecoder().decode(Report.self, from: output.stdout) else {
            throw ImagingError(.corrupt, unfinished, detail: "the image decoder exited \(output.status): \(output.stderrTail)")
        }
        if let failure = report.failure {
            throw ImagingError(ImagingError.Code(reported: failure.code) ?? .corrupt, failure.message, detail: failure.detail)
        }
        guard let info = report.info, let made = report.outputs, made.count == requests.count else {
            throw ImagingError(.corrupt, unfinished, detail: "the image decoder's report is incomplete")
        }
        handedOver = true
        return Apart(info: info, files: made.enumerated().map { (outputFile(outputPrefix, $0), $1.size, $1.mimeType) })
    }

    /// A decode the child made: what it found, and its outputs in files until `collect`.
    package struct Apart: Sendable {
        package let info: ImageInfo
        let files: [(path: String, size: PixelSize, mimeType: String)]

        /// The outputs, read back from their files, which are gone afterwards: blocking file
        /// work, for the caller's lane.
        package func collect() throws(ImagingError) -> [RenderedImage] {
            defer { for file in files { unlink(file.path) } }
            return try files.map { file throws(ImagingError) in
                guard let data = FileManager.default.contents(atPath: file.path) else {
                    throw ImagingError(.unreadable, "A decoded image cannot be read back.")
                }
                return RenderedImage(size: file.size, data: Array(data), mimeType: file.mimeType)
            }
        }
    }

    /// `cameraroll decode-image PATH OUTPUT-PREFIX MAX-PIXELS REQUESTS`: the child's side.
    /// Exits 0 with a report on standard output, also when the file is refused; anything else
    /// (a crash above all) is the parent's to turn into a refusal.
    package static func childMain(_ arguments: [String]) -> Int32 {
        guard arguments.count == 4, let maxPixels = Int(arguments[2]),
            let requests = try? JSONDecoder().decode([RenderRequest].self, from: Data(arguments[3].utf8))
        else {
            FileHandle.standardError.write(Data("usage: decode-image PATH OUTPUT-PREFIX MAX-PIXELS REQUESTS\n".utf8))
            return 2
        }
        let (path, prefix) = (arguments[0], arguments[1])
        var report = Report()
        do throws(ImagingError) {
            let (info, outputs) = try decode(try Imaging(maxPixels: maxPixels), try ImageFile(path), requests)
            for (index, output) in outputs.enumerated() {
                guard
                    FileManager.default.createFile(
                        atPath: outputFile(prefix, index), contents: Data(output.data), attributes: [.posixPermissions: 0o600])
                else { throw ImagingError(.unreadable, "A decoded image cannot be written.") }
            }
            report.info = info
            report.outputs = outputs.map { Report.Output(size: $0.size, mimeType: $0.mimeType) }
        } catch {
            report.failure = Report.Failure(code: error.code.description, message: error.message, detail: error.detail)
        }
        guard let json = try? JSONEncoder().encode(report) else { return 1 }
        FileHandle.standardOutput.write(json)
        return 0
    }

    private static let unfinished = "The image could not be decoded in time."

    private static func outputFile(_ prefix: String, _ index: Int) -> String { "\(prefix).\(index)" }

    private static func encoded(_ requests: [RenderRequest]) throws(ImagingError) -> Data {
        do {
            return try JSONEncoder().encode(requests)
        } catch {
            throw ImagingError(.invalidRequest, "The outputs cannot be described to the image decoder.")
        }
    }

    /// What the child says on standard output.
    private struct Report: Codable {
        struct Failure: Codable {
            var code: String
            var message: String
            var detail: String?
        }
        struct Output: Codable {
            var size: PixelSize
            var mimeType: String
        }
        var info: ImageInfo?
        var outputs: [Output]?
        var failure: Failure?
    }
}
