#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// libm under names of their own: inside the methods below the plain names are the methods.
private func libmSine(_ x: Double) -> Double { sin(x) }
private func libmCosine(_ x: Double) -> Double { cos(x) }
private func libmArcSine(_ x: Double) -> Double { asin(x) }
private func libmLog2(_ x: Double) -> Double { log2(x) }
private func libmLog(_ x: Double) -> Double { log(x) }

/// The few libm functions the gazetteer's distances need, so that Places/ stays free of
/// the C library.
extension Platform {
    /// sin² x.
    @inline(__always)
    package static func sinSquared(_ x: Double) -> Double {
        let s = libmSine(x)
        return s * s
    }

    /// cos x.
    @inline(__always)
    package static func cos(_ x: Double) -> Double { libmCosine(x) }

    /// asin x.
    @inline(__always)
    package static func asin(_ x: Double) -> Double { libmArcSine(x) }

    /// log2 x.
    @inline(__always)
    package static func log2(_ x: Double) -> Double { libmLog2(x) }

    /// The natural logarithm of x.
    @inline(__always)
    package static func log(_ x: Double) -> Double { libmLog(x) }
}
