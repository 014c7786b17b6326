import Foundation

/// Shared plumbing for the test targets: where `testdata/` is, fresh temporary directories,
/// and running the independent oracles (GDAL, PROJ, sqlite3, the project's .venv tools).
public enum TestData {
    /// The repository root, found from this file's location so tests run from any directory.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file under `testdata/`.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent("testdata").appendingPathComponent(relativePath)
    }

    /// A file under `testdata/fixtures/`: answers recorded from independent oracles.
    public static func fixture(_ relativePath: String) -> URL {
        url("fixtures/" + relativePath)
    }

    /// The project's venv interpreter (pygeodiff, mercantile, mbutil), made by scripts/bootstrap.
    public static var venvPython: String { root.appendingPathComponent(".venv/bin/python").path }
}

/// A directory that exists for one test and is removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init(_ label: String = "pkgbuild-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Copies a file of `testdata/` in, so a test can change it freely.
    @discardableResult
    public func copy(testdata name: String, as newName: String? = nil) throws -> String {
        let dest = path(newName ?? (name as NSString).lastPathComponent)
        try FileManager.default.copyItem(atPath: TestData.url(name).path, toPath: dest)
        return dest
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        (self.status, self.stdout, self.stderr) = (status, stdout, stderr)
    }
}

/// Runs an external program (an oracle) and captures its output.
/// - Parameter executable: a path, or a bare name looked up on PATH.
public func runProcess(_ executable: String, _ arguments: [String],
                       environment: [String: String]? = nil) throws -> ProcessResult {
    let p = Process()
    if executable.contains("/") {
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
    } else {
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [executable] + arguments
    }
    if let environment { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    // Read both pipes before waiting, so a chatty process cannot block on a full pipe.
    let errData = ReadInBackground(err.fileHandleForReading)
    let outData = readToEnd(out.fileHandleForReading)
    p.waitUntilExit()
    return ProcessResult(status: p.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData.wait(), as: UTF8.self))
}

/// Everything a pipe gives until its end. Foundation's `readDataToEndOfFile` traps on EINTR,
/// which a child's SIGCHLD can cause while tests run processes in parallel; this retries.
private func readToEnd(_ handle: FileHandle) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if n > 0 {
            data.append(contentsOf: buffer[0..<n])
        } else if n == 0 || errno != EINTR {
            return data
        }
    }
}

private final class ReadInBackground: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            self.data = readToEnd(handle)
            self.done.signal()
        }
    }
    func wait() -> Data {
        done.wait()
        return data
    }
}

/// GDAL's GeoPackage validator (Debian's python3-gdal), run by the Debian interpreter that has
/// the bindings. A valid file: status 0 and no output.
public enum GDALValidator {
    public static let script = "/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py"

    /// - Parameter keepGoing: `-k`: report every finding, not only the first.
    public static func run(_ path: String, keepGoing: Bool = false) throws -> ProcessResult {
        try runProcess("/usr/bin/python3", [script] + (keepGoing ? ["-k"] : []) + [path])
    }

    /// Its findings as one text, empty for a valid file.
    public static func findings(_ path: String) throws -> String {
        let result = try run(path)
        let text = (result.stdout + result.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status == 0 ? text : "exit \(result.status): \(text)"
    }
}

/// `sqlite3 FILE .dump`: the whole database as SQL, to show that a refused command changed
/// nothing. Throws when sqlite3 fails or prints nothing (an empty dump proves nothing).
public func sqliteDump(_ path: String) throws -> String {
    let result = try runProcess("sqlite3", [path, ".dump"])
    guard result.status == 0, !result.stdout.isEmpty else {
        throw TestSupportError("sqlite3 \(path) .dump failed (\(result.status)): \(result.stderr)")
    }
    return result.stdout
}

/// A test's own plumbing failed (an oracle did not run), as opposed to a finding.
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
