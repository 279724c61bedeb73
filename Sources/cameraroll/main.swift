import Foundation
import Imaging

// Before any thread starts, and never changed again: whatever this process makes without naming
// a mode of its own (libvips' temp images of decoded photos, what ffmpeg writes, files of any
// library added later) is its owner's alone, as everything our code makes already is.
umask(0o077)
Imaging.skipUnusedModules()
exit(await CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
