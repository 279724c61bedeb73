import Foundation
import FuzzTargets

/// libFuzzer driven from our own `main`, through `LLVMFuzzerRunDriver`, so this stays an ordinary
/// executable that builds without libFuzzer. The fuzz build links libFuzzer whole and exports its
/// symbols, and the driver is found at run time.
enum LibFuzzer {
    /// The target `CAMERAROLL_FUZZ_TARGET` names, fixed for the life of the process.
    static let target = ProcessInfo.processInfo.environment["CAMERAROLL_FUZZ_TARGET"].flatMap(FuzzTarget.named)

    private typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    private typealias RunDriver =
        @convention(c) (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>, Callback)
        -> Int32

    static func run(arguments: [String]) -> Int32 {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "LLVMFuzzerRunDriver") else {
            FileHandle.standardError.write(Data("This build has no libFuzzer in it: run `make fuzz`.\n".utf8))
            return 2
        }
        let driver = unsafeBitCast(symbol, to: RunDriver.self)
        var argc = Int32(arguments.count)
        let strings = arguments.map { strdup($0) } + [nil]
        defer { for string in strings { free(string) } }
        return strings.withUnsafeBufferPointer { buffer in
            var argv = UnsafeMutablePointer(mutating: buffer.baseAddress)
            return driver(&argc, &argv, fuzzOne)
        }
    }
}

/// One input from libFuzzer, on its thread.
private func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    LibFuzzer.target?.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
