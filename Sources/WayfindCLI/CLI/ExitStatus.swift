import WayfindCore

/// How every wayfind tool exits, like grep.
package enum ExitStatus: Int32, Sendable {
    /// A result was printed (a line selected, a suggestion found).
    case success = 0
    /// Nothing was found.
    case nothingFound = 1
    /// A usage or runtime error.
    case error = 2
}
