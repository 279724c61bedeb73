import Foundation
import Imaging
import PhotoLibrary
import Storage
import Video

/// `cameraroll doctor`: the versions of everything CameraRoll runs on, and a clear failure (exit
/// 1) naming what is missing.
enum DoctorCommand {
    struct Check {
        var name: String
        var detail: String
        var ok: Bool
    }

    static func run(_ arguments: Arguments, _ context: Context) async -> Int32 {
        var checks: [Check] = []
        do {
            let imaging = try ImagingSupport.check()
            checks.append(Check(name: "libvips", detail: imaging.libvipsVersion, ok: true))
            let heif: Check =
                switch (imaging.libheifVersion, imaging.readsCurrentIPhoneHEIC) {
                case (let version?, true): Check(name: "libheif", detail: "\(version) (HEIF and AVIF photos)", ok: true)
                case (let version?, false):
                    Check(name: "libheif", detail: "\(version) is too old: current iPhones' HEIC photos need 1.19", ok: false)
                case (nil, _): Check(name: "libheif", detail: "missing: HEIF and AVIF photos cannot be read", ok: false)
                }
            checks.append(heif)
            checks.append(
                Check(
                    name: "libexif",
                    detail: imaging.readsOrientation
                        ? "\(imaging.libexifVersion ?? "present") (EXIF orientation is applied)"
                        : "missing: EXIF orientation is ignored and turned photos come out on their side",
                    ok: imaging.readsOrientation))
        } catch {
            checks.append(Check(name: "libvips", detail: "cannot start: \(error.message)", ok: false))
        }
        do {
            let versions = try await context.videoTools.versions()
            checks.append(Check(name: "ffmpeg", detail: versions.ffmpeg, ok: true))
            checks.append(Check(name: "ffprobe", detail: versions.ffprobe, ok: true))
        } catch {
            checks.append(Check(name: "ffmpeg", detail: "missing or broken: \(error.message)", ok: false))
        }
        checks.append(Check(name: "SQLite", detail: SQLiteDatabase.sqliteVersion, ok: true))
        checks.append(dataFolderCheck(context.folder))

        let width = checks.map(\.name.count).max() ?? 0
        Terminal.out("CameraRoll doctor")
        for check in checks {
            Terminal.out(
                "  \(check.ok ? "ok     " : "MISSING") \(check.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(check.detail)"
            )
        }
        guard checks.allSatisfy(\.ok) else {
            Terminal.error("Something CameraRoll needs is missing. 'make install-deps' installs every package it uses.")
            return 1
        }
        return 0
    }

    private static func dataFolderCheck(_ folder: DataFolder) -> Check {
        let manager = FileManager.default
        var probe = folder.root
        while !manager.fileExists(atPath: probe) && probe != "/" { probe = (probe as NSString).deletingLastPathComponent }
        let writable = manager.isWritableFile(atPath: probe)
        return Check(name: "data folder", detail: folder.root + (writable ? "" : " (not writable)"), ok: writable)
    }
}
