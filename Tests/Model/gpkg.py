"""GeoPackage plumbing for the driver: the geometry blob (header + ISO WKB), the ST_* functions
GDAL's R-tree triggers call (for Python's sqlite3 as a client), and reading a table into the
model's tagged values. Independent of pkgbuild's code."""

import sqlite3
import struct

GEOMETRY_BASE = {1: 'POINT', 2: 'LINESTRING', 3: 'POLYGON', 4: 'MULTIPOINT', 5: 'MULTILINESTRING',
                 6: 'MULTIPOLYGON'}


def split_blob(blob):
    """GeoPackageBinary -> (srs_id, envelope or None, empty?, wkb)."""
    if blob is None or len(blob) < 8 or blob[:2] != b'GP':
        raise ValueError('not a GeoPackage geometry blob: %r' % (blob[:16] if blob else blob))
    flags = blob[3]
    order = '<' if flags & 1 else '>'
    srs_id = struct.unpack(order + 'i', blob[4:8])[0]
    doubles = {0: 0, 1: 4, 2: 6, 3: 6, 4: 8}[(flags >> 1) & 7]
    envelope = struct.unpack(order + 'd' * doubles, blob[8:8 + 8 * doubles]) if doubles else None
    return srs_id, envelope, bool(flags & 0x10), blob[8 + 8 * doubles:]


def parse_wkb(wkb, offset=0):
    """ISO WKB -> ((type code, nested coordinates), next offset). Type code keeps Z/M (1001...)."""
    order = '<' if wkb[offset] == 1 else '>'
    code = struct.unpack_from(order + 'I', wkb, offset + 1)[0]
    offset += 5
    dims = 2 + (1 if (code // 1000) in (1, 3) else 0) + (1 if (code // 1000) in (2, 3) else 0)
    base = code % 1000

    def points(n, at):
        values = struct.unpack_from(order + 'd' * (dims * n), wkb, at)
        return tuple(tuple(values[i * dims:(i + 1) * dims]) for i in range(n)), at + 8 * dims * n

    if base == 1:
        coordinates, offset = points(1, offset)
        if all(v != v for v in coordinates[0]):        # NaN coordinates: an empty point
            coordinates = ()
    elif base == 2:
        n = struct.unpack_from(order + 'I', wkb, offset)[0]
        coordinates, offset = points(n, offset + 4)
    elif base == 3:
        rings = []
        count = struct.unpack_from(order + 'I', wkb, offset)[0]
        offset += 4
        for _ in range(count):
            n = struct.unpack_from(order + 'I', wkb, offset)[0]
            ring, offset = points(n, offset + 4)
            rings.append(ring)
        coordinates = tuple(rings)
    elif base in (4, 5, 6, 7):
        parts = []
        count = struct.unpack_from(order + 'I', wkb, offset)[0]
        offset += 4
        for _ in range(count):
            part, offset = parse_wkb(wkb, offset)
            parts.append(part)
        coordinates = tuple(parts)
    else:
        raise ValueError('WKB type %d not supported' % code)
    return (code, coordinates), offset


def geometry_value(blob):
    """The model's value of a geometry blob: its type and vertices, not its encoding."""
    return ('geom', parse_wkb(split_blob(blob)[3])[0])


def point_z_blob(x, y, z, srs_id=4326):
    """A little-endian GeoPackageBinary POINT Z with an XY envelope, as a small app writes it."""
    header = b'GP' + bytes([0, 0b00000011]) + struct.pack('<i', srs_id) + struct.pack('<4d', x, x, y, y)
    return header + struct.pack('<BI3d', 1, 1001, x, y, z)


def _flat(coordinates):
    if coordinates and isinstance(coordinates[0], float):
        yield coordinates
        return
    for part in coordinates:
        if isinstance(part, tuple) and len(part) == 2 and isinstance(part[0], int):
            yield from _flat(part[1])                      # a part of a multi geometry
        else:
            yield from _flat(part)


def _bounds(blob):
    if blob is None:
        return None
    _, envelope, empty, wkb = split_blob(blob)
    if empty:
        return None
    if envelope:
        return envelope[0], envelope[1], envelope[2], envelope[3]
    vertices = list(_flat(parse_wkb(wkb)[0][1]))
    if not vertices:
        return None
    xs, ys = [v[0] for v in vertices], [v[1] for v in vertices]
    return min(xs), max(xs), min(ys), max(ys)


def register_functions(connection):
    """The functions GDAL's R-tree triggers call, so sqlite3 can write a GeoPackage."""
    connection.create_function('ST_IsEmpty', 1, lambda b: None if b is None else int(_bounds(b) is None))
    for name, index in (('ST_MinX', 0), ('ST_MaxX', 1), ('ST_MinY', 2), ('ST_MaxY', 3)):
        connection.create_function(name, 1, lambda b, i=index: (_bounds(b) or (None,) * 4)[i])


def connect(path):
    connection = sqlite3.connect(path, isolation_level=None, timeout=30)
    connection.text_factory = bytes
    register_functions(connection)
    return connection


def normalized_gid(text):
    if isinstance(text, bytes):
        text = text.decode('ascii', 'replace')
    return text.strip('{}').upper()


def read_rows(path, table, geometry_column):
    """key (table, normalized globalid) -> {column: tagged value}, every column but the fid."""
    connection = connect(path)
    try:
        columns = [r[1].decode() if isinstance(r[1], bytes) else r[1]
                   for r in connection.execute('PRAGMA table_info("%s")' % table)]
        kept = [c for c in columns if c.lower() not in ('fid', 'globalid')]
        select = ', '.join(['"globalid"'] + ['"%s", typeof("%s")' % (c, c) for c in kept])
        rows = {}
        for record in connection.execute('SELECT %s FROM "%s"' % (select, table)):
            row = {}
            for i, column in enumerate(kept):
                value, kind = record[1 + 2 * i], record[2 + 2 * i].decode()
                if column == geometry_column and kind == 'blob':
                    row[column] = geometry_value(value)
                else:
                    row[column] = (kind, value)
            key = (table, normalized_gid(record[0]))
            if key in rows:
                raise ValueError('%s: globalid %s appears twice in %s' % (path, key[1], table))
            rows[key] = row
        return rows
    finally:
        connection.close()
