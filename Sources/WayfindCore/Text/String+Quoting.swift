extension String {
    /// The string with every `scalar` replaced by `replacement`: the quoting of generated
    /// shell scripts and man pages. By scalars, not characters, because a quote followed
    /// by a combining mark is still a quote to a shell. (The standard library's
    /// `replacing(_:with:)` comes from the regex module, which would add 1 MB to every
    /// tool; release builds leave that module out.)
    package func replacing(scalar: Unicode.Scalar, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for next in unicodeScalars {
            if next == scalar { result += replacement } else { result.unicodeScalars.append(next) }
        }
        return result
    }
}

extension Substring {
    /// The text without leading and trailing `characters` (Foundation's, which the tools
    /// do not link).
    package func trimmingCharacters(in characters: String) -> String {
        var s = self
        while let c = s.first, characters.contains(c) { s.removeFirst() }
        while let c = s.last, characters.contains(c) { s.removeLast() }
        return String(s)
    }
}
