import Foundation
import FuzzTargets
import PhotoLibrary

// `make fuzz` runs this, built with AddressSanitizer, coverage and libFuzzer linked in; a plain
// build has no libFuzzer and only lists the targets and writes their seeds. The target to fuzz
// is named in the environment, not the arguments: libFuzzer starts copies of itself with its own
// arguments (-merge, -fork), and they must fuzz the same target.
let usage = """
    cameraroll-fuzz --list                      the targets: name, the longest input, seed folders, what it reads
    cameraroll-fuzz seeds TARGET CORPUS DIR     write TARGET's seeds, made from the shared corpus at CORPUS, into DIR
    cameraroll-fuzz contains FILE...            whether the server contains each crash: "contained" when it decodes the
                                                file in a child process, which dies instead of the server
    CAMERAROLL_FUZZ_TARGET=TARGET cameraroll-fuzz [LIBFUZZER-ARGUMENT...]
                                                fuzz TARGET (corpus folders, -max_total_time=..., -merge=1, ...)
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case _ where LibFuzzer.target != nil:
    exit(LibFuzzer.run(arguments: CommandLine.arguments))
case "--list":
    for target in FuzzTarget.all {
        print([target.name, String(target.maxLength), target.seedFolders.joined(separator: ","), target.summary].joined(separator: "\t"))
    }
case "seeds" where arguments.count == 4:
    guard let target = FuzzTarget.named(arguments[1]) else { fail("No fuzz target is named \(arguments[1]).") }
    exit(await Seeds.write(target, corpus: arguments[2], into: arguments[3]))
case "contains" where arguments.count >= 2:
    exit(await Containment.check(Array(arguments.dropFirst())))
case ImportDecoder.command:
    exit(ImportDecoder.childMain(Array(arguments.dropFirst())))
default:
    fail(usage)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}
