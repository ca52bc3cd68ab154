// The C library for every test target, in one place: a test file imports WayfindTestSupport
// instead of Glibc, Musl or Darwin (the sources keep theirs to
// Sources/WayfindCore/Platform/Platform.swift, which does not export it).
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#else
    #error("unsupported platform")
#endif
