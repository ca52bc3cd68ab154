import WayfindCore

/// GNU-style command-line parsing driven by a `ToolSpec`.
///
/// The rules are those of GNU `getopt_long`, so the tools feel like `grep`:
///
///     -qi             two switches bundled: -q -i
///     -m5  -m 5       a short option's value, attached or in the next word
///     -qm5            switches, then a valued short option that eats the rest of the word
///     --max-count=5   a long option's value after `=` ...
///     --max-count 5   ... or in the next word (required values only)
///     --color         an optional value left out: the flag's declared default
///     --color=never   an optional value, which can only be given after `=`
///     --max 5         an unambiguous prefix of a long option; an exact name always wins
///     -5  -n12        a run of digits sets the tool's `numberFlag` (grep's -NUM: -C NUM)
///     a -q b          options may follow positionals (GNU permutation) ...
///     -- -q           ... but not after `--`, which makes every later word a positional
///     -               a lone dash is a positional (it means stdin)
///
/// A required value is taken from the next word whatever it looks like, so `-m -1`
/// gives `max-count` the value `-1`, as getopt does.
///
/// A tool that stands in for another program (smartgrep for grep) lists that peer's
/// options it does not have (`ToolSpec.peerOptions`). They take part in resolving
/// abbreviations as if they were flags, so a prefix means here what it means in the peer
/// or nothing: `--nul` is ambiguous in grep (`--null`, `--null-data`) and here, and a
/// peer option, given whole or abbreviated, long or short, is refused by its name.

/// A command-line mistake: an unknown, ambiguous or malformed option.
///
/// Printed once, at the edge, as `toolname: message`, followed by the usage hint.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, lowercase, naming the offending option as it was typed or, for a
    /// long option, by its full name: `unknown option '--frob'`.
    package var message: String

    /// An error with the given message.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}

/// One flag occurrence: its long name without dashes and its value (nil for a switch).
///
/// A struct, not a tuple: a tuple element type costs every start-up a run-time metadata
/// instantiation (about 70,000 instructions, a tenth of a small routegraph run).
package struct ParsedFlag: Sendable, Equatable {
    package var long: String
    package var value: String?

    package init(_ long: String, _ value: String?) {
        self.long = long
        self.value = value
    }
}

/// The result of parsing a command line: flags in command-line order, then positionals.
package struct ParsedArguments: Sendable, Equatable {
    /// Every flag occurrence in command-line order, keyed by its long name without dashes.
    ///
    /// `value` is nil for a switch; for a flag with an optional value that was left out it
    /// is the declared default, so only switches have nil values.
    package var flags: [ParsedFlag]
    /// The non-option words in order, including a lone `-` and everything after `--`.
    package var positionals: [String]
    /// The long names of the table parsed against (nil when made by hand): reading a flag
    /// that is not among them is an error, so a flag left out of its table cannot be read
    /// as silently never given.
    package var declared: [String]? = nil

    /// Equal when the flags and positionals are (`declared` is bookkeeping).
    package static func == (a: ParsedArguments, b: ParsedArguments) -> Bool {
        a.flags == b.flags && a.positionals == b.positionals
    }

    /// Parsed arguments with the given flags and positionals.
    package init(flags: [ParsedFlag] = [], positionals: [String] = []) {
        self.flags = flags
        self.positionals = positionals
    }
}

/// Parses a command line (without `argv[0]`) against the flags of `spec`.
///
/// See the top of this file for the rules. Throws a `UsageError` for an unknown or
/// ambiguous option, a missing required value, or a value given to a switch.
package func parseArguments(
    _ arguments: [String], spec: ToolSpec
) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments()
    result.declared = spec.flags.map(\.long)
    var index = 0
    while index < arguments.count {
        let word = arguments[index]
        index += 1
        if word == "--" {
            result.positionals += arguments[index...]
            break
        } else if word.hasPrefix("--") {
            try parseLongOption(
                word, spec: spec, arguments: arguments, index: &index, into: &result)
        } else if word.hasPrefix("-") && word != "-" {
            try parseShortCluster(
                word, spec: spec, arguments: arguments, index: &index, into: &result)
        } else {
            result.positionals.append(word)
        }
    }
    return result
}

/// Parses one `--name` or `--name=value` word, taking a required value from the next word
/// when there is no `=`.
private func parseLongOption(
    _ word: String, spec: ToolSpec, arguments: [String], index: inout Int,
    into result: inout ParsedArguments
) throws(UsageError) {
    let body = word.dropFirst(2)
    let name: Substring
    let inlineValue: Substring?
    if let equals = body.firstIndex(of: "=") {
        name = body[..<equals]
        inlineValue = body[body.index(after: equals)...]
    } else {
        name = body
        inlineValue = nil
    }
    guard !name.isEmpty else { throw UsageError("unknown option '\(word)'") }
    let flag = try longFlag(named: name, in: spec)

    switch flag.value {
    case .none:
        if inlineValue != nil { throw UsageError("option '--\(flag.long)' takes no value") }
        result.flags.append(ParsedFlag(flag.long, nil))
    case .required:
        if let inlineValue {
            result.flags.append(ParsedFlag(flag.long, String(inlineValue)))
        } else if index < arguments.count {
            result.flags.append(ParsedFlag(flag.long, arguments[index]))
            index += 1
        } else {
            throw UsageError("option '--\(flag.long)' requires a value")
        }
    case .optional(_, let defaultValue):
        result.flags.append(ParsedFlag(flag.long, inlineValue.map(String.init) ?? defaultValue))
    }
}

/// The flag a long option name refers to: the exact name if there is one, else the only
/// flag whose name starts with it. The peer's options count as candidates (see the top of
/// the file): naming one, exactly or as the only candidate, is an error that names it.
private func longFlag(named name: Substring, in spec: ToolSpec) throws(UsageError) -> FlagSpec {
    let typed = String(name)
    if let exact = spec.flags.first(where: { $0.long == typed || $0.aliases.contains(typed) }) { return exact }
    if let peer = spec.peerOptions.first(where: { $0.names.contains(typed) }) { throw .peerOption(peer, long: typed, in: spec) }
    let flags = spec.flags.filter { $0.long.hasPrefix(typed) || $0.aliases.contains { $0.hasPrefix(typed) } }
    let peers = spec.peerOptions.filter { $0.names.contains { $0.hasPrefix(typed) } }
    switch (flags.count, peers.count) {
    case (1, 0):
        return flags[0]
    case (0, 1):
        throw .peerOption(peers[0], long: peers[0].names.first { $0.hasPrefix(typed) }, in: spec)
    case (0, 0):
        let hint = Spelling.hint(for: typed, in: spec.flags.map(\.long)) { "--" + $0 }
        throw UsageError("unknown option '--\(name)'" + hint)
    default:
        let names = flags.map { "--\($0.long)" } + peers.map { peer in "--" + (peer.names.first { $0.hasPrefix(typed) } ?? typed) }
        throw UsageError("ambiguous option '--\(name)' (could be \(names.joined(separator: ", ")))")
    }
}

extension UsageError {
    /// The error for a peer's option the tool does not have, named as typed: by its long
    /// name `long` (resolved from an abbreviation), or by its short form when `long` is nil.
    static func peerOption(_ option: PeerOption, long: String?, in spec: ToolSpec) -> UsageError {
        let name: String
        if let long {
            name = "'--\(long)'" + (option.short.map { " (-\($0))" } ?? "")
        } else {
            name = "'-\(option.short ?? "?")'" + (option.long.map { " (--\($0))" } ?? "")
        }
        if !option.advice.isEmpty { return UsageError("option \(name) \(option.advice)") }
        return UsageError("unsupported \(spec.peer.isEmpty ? "" : spec.peer + " ")option \(name)")
    }
}

/// Parses one `-abc` word: switches until a flag that takes a value, which gets the rest
/// of the word or, when that is empty, the next word.
private func parseShortCluster(
    _ word: String, spec: ToolSpec, arguments: [String], index: inout Int,
    into result: inout ParsedArguments
) throws(UsageError) {
    var rest = word.dropFirst()
    while let letter = rest.first {
        rest = rest.dropFirst()
        if let numberFlag = spec.numberFlag, letter.isASCII && letter.isNumber {
            // grep's -NUM: the digits that follow in this word are the same number.
            let digits = String(letter) + rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count - 1)
            result.flags.append(ParsedFlag(numberFlag, digits))
            continue
        }
        guard let flag = spec.flags.first(where: { $0.short == letter }) else {
            if let peer = spec.peerOptions.first(where: { $0.short == letter }) { throw .peerOption(peer, long: nil, in: spec) }
            throw UsageError("unknown option '-\(letter)'")
        }
        switch flag.value {
        case .none:
            result.flags.append(ParsedFlag(flag.long, nil))
        case .optional(_, let defaultValue):
            // Optional values are only ever given as `--name=value`; `-c` means the default.
            result.flags.append(ParsedFlag(flag.long, defaultValue))
        case .required:
            if !rest.isEmpty {
                result.flags.append(ParsedFlag(flag.long, String(rest)))
            } else if index < arguments.count {
                result.flags.append(ParsedFlag(flag.long, arguments[index]))
                index += 1
            } else {
                throw UsageError("option '-\(letter)' requires a value")
            }
            return
        }
    }
}
