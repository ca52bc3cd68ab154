import Foundation
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// A tool's entry point: `Smartgrep.run`, `MagickeySuggest.run`, …
typealias ToolRun = ([String], ToolContext) -> ExitStatus

/// The entry point of the tool named `name`, as wayfind's `main.swift` finds it.
func toolEntry(_ name: String) -> ToolRun {
    guard let tool = MultiCall.tool(named: name) else { preconditionFailure("no tool named \(name)") }
    return tool.run
}

/// The clock of in-process runs: 2027-01-15 08:00 UTC.
let fixedNow: Int64 = 1_800_000_000

/// Runs the tool named `tool` in this process, as its binary would run: `input` on
/// standard input, standard output and error captured in unlinked temporary files (no
/// pipe to fill), only the variables of `environment`, and a fixed clock. With
/// `errorsInOutput`, standard error is standard output's file (as `2>&1`), to see the
/// order of the two.
func runInProcess(
    _ tool: String, _ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
    inputIsTerminal: Bool = false, now: Int64 = fixedNow, errorsInOutput: Bool = false
) -> RunResult {
    runInProcess(
        toolEntry(tool), arguments, input: input, environment: environment, inputIsTerminal: inputIsTerminal, now: now,
        errorsInOutput: errorsInOutput)
}

/// Runs a tool's `run` in this process; see `runInProcess(_:_:input:environment:…)`.
func runInProcess(
    _ run: ToolRun, _ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
    inputIsTerminal: Bool = false, now: Int64 = fixedNow, errorsInOutput: Bool = false
) -> RunResult {
    func scratch() -> Int32 {
        var template = Array((TestFiles.folder.path + "/in-process-XXXXXX").utf8CString)
        // Close-on-exec, as every descriptor the tools open: a process another test starts
        // meanwhile does not keep these.
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        precondition(descriptor >= 0 && fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0, "mkstemp failed")
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }
    func contents(_ descriptor: Int32) -> Data {
        lseek(descriptor, 0, SEEK_SET)
        var bytes = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[..<n])
        }
        close(descriptor)
        return bytes
    }
    TestGazetteer.install()
    let (stdin, stdout, stderr) = (scratch(), scratch(), scratch())
    _ = input.withUnsafeBytes { write(stdin, $0.baseAddress, $0.count) }
    lseek(stdin, 0, SEEK_SET)
    var context = ToolContext(
        standardInput: FileDescriptor(stdin), standardOutput: FileDescriptor(stdout), standardError: FileDescriptor(errorsInOutput ? stdout : stderr),
        environment: Environment(environment), now: { now })
    context.inputIsTerminal = inputIsTerminal
    let status = run(arguments, context)
    close(stdin)
    return RunResult(
        status: status.rawValue, stdout: contents(stdout), stderr: String(decoding: contents(stderr), as: UTF8.self))
}
