import Foundation
import Imaging

// Before any thread starts, and never changed again: whatever this process makes without naming
// a mode of its own (libvips' temp images of decoded photos, what ffmpeg writes, files of any
// library added later) is its owner's alone, as everything our code makes already is.
umask(0o077)
Imaging.skipUnusedModules()
let status = await CommandLineTool.run(Array(CommandLine.arguments.dropFirst()))
// Ended without exit(3): its handlers and the libraries' destructors would run while threads of
// ours may still be inside those libraries (a PostgreSQL listener still connecting, through
// Kerberos, aborted the process on a mutex libkrb5's destructor had destroyed). Everything that
// must outlive the process was committed or fsynced before a command returns; stdio's buffers
// are flushed here.
fflush(nil)
_exit(status)
