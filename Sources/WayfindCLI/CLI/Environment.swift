import WayfindCore

/// Read access to environment variables: the process's (looked up with `getenv` when
/// asked, so starting a tool costs nothing) or a fixed set (tests).
///
/// Building a `[String: String]` of the whole environment at start-up took half of a
/// smartgrep run on empty input; a tool reads two or three variables at most.
package struct Environment: Sendable, ExpressibleByDictionaryLiteral {
    private let fixed: [String: String]?

    /// The process environment.
    package static let process = Environment(fixed: nil)

    private init(fixed: [String: String]?) { self.fixed = fixed }

    /// A fixed set of variables.
    package init(_ variables: [String: String]) { fixed = variables }

    /// A fixed set of variables, from a literal.
    package init(dictionaryLiteral elements: (String, String)...) {
        var variables: [String: String] = [:]
        for (name, value) in elements { variables[name] = value }
        fixed = variables
    }

    /// The value of `name`, or nil when it is unset. Bytes that are not valid UTF-8 come
    /// back as U+FFFD (see `isValidUTF8`).
    package subscript(name: String) -> String? {
        if let fixed { return fixed[name] }
        return Platform.environmentVariable(name)
    }

    /// Whether `name` is unset or holds valid UTF-8 (a fixed set always does).
    package func isValidUTF8(_ name: String) -> Bool {
        fixed != nil || Platform.environmentVariableIsValidUTF8(name)
    }
}

extension Environment {
    /// The folder of wayfind's cache (gazetteer indexes, `PlacesIndexCache`):
    /// `$XDG_CACHE_HOME/wayfind` when XDG_CACHE_HOME is an absolute path, else
    /// `$HOME/.cache/wayfind`; nil without either.
    package var cacheDirectory: String? {
        if let cache = self["XDG_CACHE_HOME"], cache.hasPrefix("/"), isValidUTF8("XDG_CACHE_HOME") {
            return (cache.hasSuffix("/") ? cache : cache + "/") + "wayfind"
        }
        if let home = self["HOME"], !home.isEmpty, isValidUTF8("HOME") {
            return (home.hasSuffix("/") ? home : home + "/") + ".cache/wayfind"
        }
        return nil
    }
}
