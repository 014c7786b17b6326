import Foundation

/// Python's sqlite3 as a small field app would use it: SQLite's defaults (`recursive_triggers`
/// off unless asked), and GDAL's R-tree trigger functions (`ST_IsEmpty`, `ST_MinX` ...)
/// registered as Python functions over GDAL's geometry parser, so that edits of a GDAL-written
/// GeoPackage work. Runs `sql` (one or more statements) and commits.
/// - Returns: the process result; status 0 when every statement succeeded.
public func pythonSQLite(_ path: String, _ sql: String, recursiveTriggers: Bool = false) throws -> ProcessResult {
    try runProcess("/usr/bin/python3", ["-c", PythonSQLite.script, path, sql, recursiveTriggers ? "1" : "0"])
}

enum PythonSQLite {
    static let script = #"""
import sqlite3, struct, sys
from osgeo import ogr
ogr.UseExceptions()

def geometry(blob):
    if blob is None or len(blob) < 8 or blob[:2] != b'GP':
        return None
    flags = blob[3]
    if flags & 0x10:
        return None
    size = {0: 0, 1: 32, 2: 48, 3: 48, 4: 64}[(flags >> 1) & 7]
    return ogr.CreateGeometryFromWkb(bytes(blob[8 + size:]))

def envelope(blob, index):
    g = geometry(blob)
    return None if g is None else g.GetEnvelope()[index]

db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.create_function('ST_IsEmpty', 1, lambda b: 1 if geometry(b) is None or geometry(b).IsEmpty() else 0)
db.create_function('ST_MinX', 1, lambda b: envelope(b, 0))
db.create_function('ST_MaxX', 1, lambda b: envelope(b, 1))
db.create_function('ST_MinY', 1, lambda b: envelope(b, 2))
db.create_function('ST_MaxY', 1, lambda b: envelope(b, 3))
db.execute('PRAGMA recursive_triggers = ' + ('ON' if sys.argv[3] == '1' else 'OFF'))
try:
    db.execute('BEGIN')
    for statement in [s for s in sys.argv[2].split(';\n') if s.strip()]:
        db.execute(statement)
    db.execute('COMMIT')
except sqlite3.Error as error:
    print(error, file=sys.stderr)
    sys.exit(1)
"""#
}
