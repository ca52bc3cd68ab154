import WayfindCore

/// Everything a tool reads from the world, injected so tests can run tools in-process.
package struct ToolContext: Sendable {
    /// Where standard input comes from.
    package var standardInput: FileDescriptor
    /// Where results go.
    package var standardOutput: FileDescriptor
    /// Where diagnostics go.
    package var standardError: FileDescriptor
    /// The environment variables.
    package var environment: Environment
    /// Whether standard output is a terminal (colour and line buffering follow it).
    package var outputIsTerminal: Bool
    /// Whether standard input is a terminal: a tool that would read its input from there
    /// with nothing given prints its usage instead of waiting silently.
    package var inputIsTerminal = false
    /// The current time in Unix seconds.
    package var now: @Sendable () -> Int64
    /// The time zone of local hours of day: the machine's (`TZ`) for a real process, UTC
    /// unless a test says otherwise.
    package var timeZone: LocalTimeZone = .utc
    /// The position (1 for the first argument after the program's name) of the first
    /// command-line argument that is not valid UTF-8, if any. Swift's
    /// `CommandLine.arguments` replaces such bytes with U+FFFD, which would name another
    /// place or file, so `runTool` refuses the command line instead.
    package var invalidUTF8Argument: Int? = nil

    /// A context over explicit descriptors.
    package init(
        standardInput: FileDescriptor = .standardInput,
        standardOutput: FileDescriptor = .standardOutput,
        standardError: FileDescriptor = .standardError,
        environment: Environment = [:],
        outputIsTerminal: Bool = false,
        now: @escaping @Sendable () -> Int64 = { 0 }
    ) {
        self.standardInput = standardInput
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.environment = environment
        self.outputIsTerminal = outputIsTerminal
        self.now = now
    }
}
