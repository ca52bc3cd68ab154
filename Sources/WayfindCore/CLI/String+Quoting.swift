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
