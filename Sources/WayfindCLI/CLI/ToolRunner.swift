import WayfindCore

/// What every tool does before and after its own work: parse flags, answer `--help`,
/// `--version` and `--generate`, print errors once as `tool: message`, flush output, and
/// turn it all into an exit status.

/// The package version, shown by `--version` and in man pages.
package enum WayfindVersion {
    /// The release number.
    package static let number = "0.1.0"
    /// The date printed in generated man pages (fixed, so regenerating is reproducible).
    package static let manDate = "2026-11-22"
}

/// A runtime failure a tool reports on stderr before exiting with status 2.
package struct ToolError: Error, Equatable, Sendable {
    /// The message, lowercase, naming the offending value or path.
    package var message: String
    /// An error with this message.
    package init(_ message: String) { self.message = message }
}

/// The flags every tool has.
package enum StandardFlags {
    /// `--help` (with `-h` unless the tool gives `-h` another meaning, as grep does).
    package static func help(short: Bool = true) -> FlagSpec {
        FlagSpec("help", short: short ? "h" : nil, help: "show this help and exit")
    }
    /// `-V`/`--version`.
    package static let version = FlagSpec("version", short: "V", help: "show the version and exit")
    /// `--generate=KIND`: the man page or a shell completion, rendered from the flag table.
    package static let generate = generate()

    /// The standard flags as `runTool` reads them (by long name, whatever their table
    /// entry's short form and help).
    static let helpGiven = Flag<Bool>(help()) { !$0.isEmpty }
    static let versionGiven = Flag<Bool>(version) { !$0.isEmpty }
    static let generateKind = Flag<String?>(generate) { $0.last ?? nil }

    /// `--generate=KIND` with kinds of the tool's own after the common ones (see
    /// `ToolSpec.generators`), described by `extraHelp`.
    package static func generate(extra: [String] = [], extraHelp: String = "") -> FlagSpec {
        FlagSpec(
            "generate", value: .required(name: "KIND"),
            help: extra.isEmpty
                ? "print the man page or a shell completion script and exit"
                : "print the man page, a completion script or a shell set-up and exit",
            manHelp:
                "Print a generated file and exit: man (this page), complete-bash, complete-zsh or complete-fish. The files shipped in man/ and completions/ are made this way."
                + (extraHelp.isEmpty ? "" : " " + extraHelp),
            completion: .choices(["man", "complete-bash", "complete-zsh", "complete-fish"] + extra))
    }
}

/// Writes `tool: message` lines to standard error, unbuffered.
package struct ErrorReporter {
    /// The tool name that prefixes every message.
    package let tool: String
    let destination: FileDescriptor

    /// A reporter for `tool` writing to `destination`.
    package init(tool: String, destination: FileDescriptor) {
        self.tool = tool
        self.destination = destination
    }

    /// Prints `tool: message`.
    package func report(_ message: String) {
        var line = "\(tool): \(message)\n"
        line.withUTF8 { buffer in
            try? destination.writeAll(UnsafeRawPointer(buffer.baseAddress!), count: buffer.count)
        }
    }

    /// Prints a plain line (no prefix).
    package func plain(_ text: String) {
        var line = text.hasSuffix("\n") ? text : text + "\n"
        line.withUTF8 { buffer in
            try? destination.writeAll(UnsafeRawPointer(buffer.baseAddress!), count: buffer.count)
        }
    }
}

/// Runs a tool's body with the common front matter handled.
///
/// - Parameters:
///   - spec: the tool's flag table and texts.
///   - arguments: the command line without argv[0].
///   - context: injected I/O, environment and clock.
///   - extraVersionLines: lines after `NAME (wayfind) VERSION` in `--version` (licences).
///   - body: the tool's own work; it writes results to the output buffer and returns the
///     exit status, or throws `ToolError` / `UsageError`.
package func runTool(
    _ spec: ToolSpec, arguments: [String], context: ToolContext, extraVersionLines: [String] = [],
    body: (ParsedArguments, OutputBuffer, ErrorReporter) throws -> ExitStatus
) -> ExitStatus {
    let errors = ErrorReporter(tool: spec.name, destination: context.standardError)
    let output = OutputBuffer(context.standardOutput, lineBuffered: context.outputIsTerminal)
    let status = runToolBody(spec, arguments: arguments, context: context, extraVersionLines: extraVersionLines, output: output, errors: errors, body: body)
    // Every path that printed something reports a failed write (`--help > /dev/full`
    // exits 2, as grep does); a reader that went away (EPIPE) is not a failure.
    output.flush()
    if let failure = output.writeError {
        errors.report("write error: \(failure.description)")
        return .error
    }
    return status
}

/// `runTool` without the final flush and write-error check.
private func runToolBody(
    _ spec: ToolSpec, arguments: [String], context: ToolContext, extraVersionLines: [String], output: OutputBuffer,
    errors: ErrorReporter, body: (ParsedArguments, OutputBuffer, ErrorReporter) throws -> ExitStatus
) -> ExitStatus {
    if let position = context.invalidUTF8Argument {
        errors.report("argument \(position) is not valid UTF-8")
        return .error
    }
    let parsed: ParsedArguments
    do {
        parsed = try parseArguments(arguments, spec: spec)
    } catch {
        // The command line did not parse: --json counts if it comes before `--`.
        if let flag = spec.jsonErrorsFlag, arguments.prefix(while: { $0 != "--" }).contains("--" + flag) {
            output.write(ArcGISError.json(code: 400, message: error.message))
        }
        errors.report(error.message)
        errors.plain(renderUsageHint(spec))
        return .error
    }
    let jsonErrors = spec.jsonErrorsFlag.map { flag in parsed.flags.contains { $0.long == flag } } ?? false
    if (try? parsed.value(of: StandardFlags.helpGiven)) == true {
        output.write(renderHelp(spec))
        return .success
    }
    if (try? parsed.value(of: StandardFlags.versionGiven)) == true {
        output.write("\(spec.name) (wayfind) \(WayfindVersion.number)\n")
        for line in extraVersionLines { output.write(line + "\n") }
        return .success
    }
    if let kind = (try? parsed.value(of: StandardFlags.generateKind)) ?? nil {
        switch kind {
        case "man":
            output.write(renderManPage(spec, version: WayfindVersion.number, date: WayfindVersion.manDate))
        case "complete-bash": output.write(renderCompletion(spec, shell: .bash))
        case "complete-zsh": output.write(renderCompletion(spec, shell: .zsh))
        case "complete-fish": output.write(renderCompletion(spec, shell: .fish))
        default:
            if let generator = spec.generators[kind] {
                do {
                    output.write(try generator(parsed))
                } catch {
                    errors.report(error.message)
                    errors.plain(renderUsageHint(spec))
                    return .error
                }
                return .success
            }
            let kinds = ["man", "complete-bash", "complete-zsh", "complete-fish"] + spec.generators.keys.sorted()
            errors.report(
                "unknown --generate kind \(MessageValue.quoted(kind)) (expected \(kinds.dropLast().joined(separator: ", ")) or \(kinds.last!))"
                    + Spelling.hint(for: kind, in: kinds))
            errors.plain(renderUsageHint(spec))
            return .error
        }
        return .success
    }
    do {
        return try body(parsed, output, errors)
    } catch let error as UsageError {
        if jsonErrors { output.write(ArcGISError.json(code: 400, message: error.message)) }
        errors.report(error.message)
        errors.plain(renderUsageHint(spec))
        return .error
    } catch let error as ToolError {
        if jsonErrors { output.write(ArcGISError.json(code: 500, message: error.message)) }
        output.flush()
        errors.report(error.message)
        return .error
    } catch {
        if jsonErrors { output.write(ArcGISError.json(code: 500, message: "\(error)")) }
        output.flush()
        errors.report("\(error)")
        return .error
    }
}

/// An error in the shape ArcGIS's REST API gives it, for tools whose `--json` output
/// mimics that API: `{"error":{"code":400,"message":"Unable to complete
/// operation.","details":["…"]}}` on one line, the message (as stderr shows it) in
/// `details`. Code 400 is a request that cannot be right (a bad flag or key), 500 a
/// failure on our side (an unreadable gazetteer).
package enum ArcGISError {
    /// The error as one line of JSON, with its newline.
    package static func json(code: Int, message: String) -> String {
        var json = JSONText()
        json.raw("{\"error\":{\"code\":\(code),\"message\":\"Unable to complete operation.\",\"details\":[")
        json.string(message)
        json.raw("]}}\n")
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

extension ToolContext {
    /// The real process context: standard streams, the environment, the system clock.
    package static func process() -> ToolContext {
        Platform.ignoreBrokenPipeSignal()
        var context = ToolContext(
            environment: .process,
            outputIsTerminal: FileDescriptor.standardOutput.isTerminal,
            now: { Platform.currentTime() })
        context.invalidUTF8Argument = Platform.firstInvalidUTF8Argument()
        context.timeZone = .system
        context.inputIsTerminal = FileDescriptor.standardInput.isTerminal
        return context
    }
}
