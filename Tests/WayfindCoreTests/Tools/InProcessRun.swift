import Foundation

@testable import WayfindCore

/// A tool's entry point: `Smartgrep.run`, `MagickeySuggest.run`, …
typealias ToolRun = ([String], ToolContext) -> ExitStatus

/// What a tool run in-process printed and returned.
struct InProcessResult {
    var status: ExitStatus
    var output: String
    var errors: String
}

/// Runs a tool's `run` in this process with standard input from `input`, standard output
/// and error captured in unlinked temporary files (no pipe to fill), and a fixed clock.
func runInProcess(
    _ run: ToolRun, _ arguments: [String], input: String = "",
    inputIsTerminal: Bool = false, now: Int64 = 1_800_000_000
) -> InProcessResult {
    func scratch() -> Int32 {
        var template = Array("/tmp/wayfind-in-process-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        precondition(descriptor >= 0, "mkstemp failed")
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }
    func contents(_ descriptor: Int32) -> String {
        lseek(descriptor, 0, SEEK_SET)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        close(descriptor)
        return String(decoding: bytes, as: UTF8.self)
    }
    TestGazetteer.install()
    let (stdin, stdout, stderr) = (scratch(), scratch(), scratch())
    _ = input.utf8CString.withUnsafeBufferPointer { write(stdin, $0.baseAddress, $0.count - 1) }
    lseek(stdin, 0, SEEK_SET)
    var context = ToolContext(
        standardInput: FileDescriptor(stdin), standardOutput: FileDescriptor(stdout), standardError: FileDescriptor(stderr),
        now: { now })
    context.inputIsTerminal = inputIsTerminal
    let status = run(arguments, context)
    close(stdin)
    return InProcessResult(status: status, output: contents(stdout), errors: contents(stderr))
}
