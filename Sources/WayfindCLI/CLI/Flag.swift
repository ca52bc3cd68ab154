import WayfindCore

/// One flag of a tool, read as a typed value: its table entry (`spec`, which drives the
/// parser, `--help`, the man page and the completions) and how its occurrences become a
/// value. A tool declares its flags as static `Flag`s and reads them with
/// `ParsedArguments.value(of:)`, so a misspelt flag does not compile and a bad value is
/// refused in one place, with one message shape.
///
///     static let maxCount = Flag("max-count", short: "m", value: "NUM", help: "…",
///                                expected: "a number ≥ 0") { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
///     let limit: Int? = try parsed.value(of: maxCount)
package struct Flag<Value>: Sendable {
    /// The table entry.
    package let spec: FlagSpec
    /// Turns the values of the flag's occurrences, in command-line order (nil for a
    /// switch), into the flag's value.
    let read: @Sendable ([String?]) throws(UsageError) -> Value

    package init(_ spec: FlagSpec, read: @escaping @Sendable ([String?]) throws(UsageError) -> Value) {
        self.spec = spec
        self.read = read
    }
}

extension Flag where Value == Bool {
    /// A switch: true when given at least once.
    package init(_ long: String, short: Character? = nil, help: String, manHelp: String = "") {
        self.init(FlagSpec(long, short: short, help: help, manHelp: manHelp)) { !$0.isEmpty }
    }
}

extension Flag {
    /// A flag with a required value: the last one given, read by `parse` (nil when it is
    /// not a valid value: then the error is `invalid --LONG 'VALUE' (expected EXPECTED)`).
    /// The flag's value is nil when it was not given.
    package init<T>(
        _ long: String, short: Character? = nil, value name: String, help: String, manHelp: String = "",
        completion: CompletionKind = .none, expected: String, parse: @escaping @Sendable (String) -> T?
    ) where Value == T? {
        self.init(FlagSpec(long, short: short, value: .required(name: name), help: help, manHelp: manHelp, completion: completion)) {
            values throws(UsageError) in
            guard let last = values.last, let text = last else { return nil }
            guard let value = parse(text) else { throw UsageError.invalid(long, text, expected: expected) }
            return value
        }
    }

    /// A flag with a required value taken as it is (the last one given; nil when not given).
    package init(
        _ long: String, short: Character? = nil, value name: String, help: String, manHelp: String = "",
        completion: CompletionKind = .none
    ) where Value == String? {
        self.init(long, short: short, value: name, help: help, manHelp: manHelp, completion: completion, expected: "") { $0 }
    }

    /// A repeatable flag: every value given, in order, each read by `parse`.
    package init<T>(
        _ long: String, short: Character? = nil, values name: String, help: String, manHelp: String = "",
        completion: CompletionKind = .none, expected: String, parse: @escaping @Sendable (String) -> T?
    ) where Value == [T] {
        self.init(FlagSpec(long, short: short, value: .required(name: name), help: help, manHelp: manHelp, completion: completion)) {
            values throws(UsageError) in
            var result: [T] = []
            for case let text? in values {
                guard let value = parse(text) else { throw UsageError.invalid(long, text, expected: expected) }
                result.append(value)
            }
            return result
        }
    }

    /// A flag whose value is optional (`--color`, `--color=WHEN`; a bare `--color` means
    /// `defaultValue`), read by `parse` from the last one given; nil when not given.
    package init<T>(
        _ long: String, optionalValue name: String, default defaultValue: String, help: String, manHelp: String = "",
        completion: CompletionKind = .none, expected: String, aliases: [String] = [],
        parse: @escaping @Sendable (String) -> T?
    ) where Value == T? {
        self.init(
            FlagSpec(
                long, value: .optional(name: name, default: defaultValue), help: help, manHelp: manHelp, completion: completion,
                aliases: aliases)
        ) { values throws(UsageError) in
            guard let last = values.last, let text = last else { return nil }
            guard let value = parse(text) else { throw UsageError.invalid(long, text, expected: expected) }
            return value
        }
    }
}

extension UsageError {
    /// `invalid --LONG 'VALUE' (expected …)`, with a long value cut short.
    package static func invalid(_ long: String, _ value: String, expected: String) -> UsageError {
        UsageError("invalid --\(long) \(MessageValue.quoted(value)) (expected \(expected))")
    }
}

extension ParsedArguments {
    /// The value of `flag` on this command line.
    package func value<V>(of flag: Flag<V>) throws(UsageError) -> V {
        if let declared, !declared.contains(flag.spec.long) {
            throw UsageError("internal error: --\(flag.spec.long) is read but not in the flag table")
        }
        return try flag.read(flags.compactMap { $0.long == flag.spec.long ? .some($0.value) : nil })
    }

    /// Which of `flags` was given last (for pairs such as `-H`/`-h`, where the last wins).
    package func lastGiven(of candidates: [FlagSpec]) -> FlagSpec? {
        guard let last = flags.last(where: { given in candidates.contains { $0.long == given.long } }) else { return nil }
        return candidates.first { $0.long == last.long }
    }
}
