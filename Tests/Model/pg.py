"""PostgreSQL plumbing for the driver, independent of pkgbuild: Debian's psql of PostgreSQL 15
(never the pg_wrapper script), a database of its own per run (from template1, which has
PostGIS), one office client's writes as SQL, and reading a table into the model's tagged
values, the shape gpkg.read_rows gives."""

import os
import subprocess
import uuid

import gpkg

PSQL = '/usr/lib/postgresql/15/bin/psql'


def psql(conninfo, sql):
    """Runs sql in one psql session (one transaction when it is one statement). Returns its
    unaligned output as bytes, fields split by NUL, rows by newline. Raises RuntimeError
    with psql's words when the server refuses it."""
    environment = dict(os.environ, PGCLIENTENCODING='UTF8')
    result = subprocess.run([PSQL, '-X', '-At', '-z', '-v', 'ON_ERROR_STOP=1', '-d', conninfo, '-c', sql],
                            capture_output=True, env=environment, timeout=120)
    if result.returncode != 0:
        raise RuntimeError('psql refused %s: %s' % (sql[:160], result.stderr.decode('utf-8', 'replace')))
    return result.stdout


def with_database(conninfo, database):
    """conninfo with another database (libpq takes the last value of a repeated keyword)."""
    return '%s dbname=%s' % (conninfo, database)


def create_database(conninfo):
    """A fresh database with PostGIS. Returns its conninfo. Its name is random, not seeded:
    the run's random steps must not depend on it."""
    name = 'model_' + uuid.uuid4().hex[:12]
    psql(with_database(conninfo, 'postgres'), 'CREATE DATABASE %s TEMPLATE template1' % name)
    return with_database(conninfo, name)


def drop_database(conninfo):
    name = conninfo.rsplit('dbname=', 1)[1]
    psql(with_database(conninfo, 'postgres'), 'DROP DATABASE IF EXISTS %s WITH (FORCE)' % name)


def load(conninfo, geopackage, table):
    """The GeoPackage's table loaded as an office loads it (GDAL: serial fid, geom column
    with its GiST index, the UNIQUE field as a constraint), the global ids as uuid."""
    result = subprocess.run(['ogr2ogr', '-f', 'PostgreSQL', 'PG:' + conninfo, geopackage, table,
                             '-lco', 'FID=fid', '-lco', 'GEOMETRY_NAME=geom', '-lco', 'SPATIAL_INDEX=GIST'],
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError('ogr2ogr failed: %s' % result.stderr)
    psql(conninfo, "ALTER TABLE %s ALTER COLUMN globalid TYPE uuid USING trim(globalid, '{}')::uuid" % table)


def literal(value):
    """A tagged value as an SQL literal (text must be UTF-8: a UTF8 database holds nothing else)."""
    kind, v = value
    if kind == 'null':
        return 'NULL'
    if kind == 'text':
        return "'%s'" % v.decode('utf-8').replace("'", "''")
    if kind == 'geom':
        (x, y, z), = v[1]
        return "ST_GeomFromText('POINT Z (%r %r %r)', 4326)" % (x, y, z)
    return repr(v)


def office_write(conninfo, table, gid, row, exists):
    """psql as an office client: an update, a delete (row None) or, when the row does not
    exist, an insert with the given globalid."""
    where = "globalid = '%s'" % gpkg.normalized_gid(gid)
    if row is None:
        sql = 'DELETE FROM %s WHERE %s' % (table, where)
    elif not exists:
        columns = list(row)
        sql = 'INSERT INTO %s (globalid, %s) VALUES (%s, %s)' % (
            table, ', '.join('"%s"' % c for c in columns), "'%s'" % gpkg.normalized_gid(gid),
            ', '.join(literal(row[c]) for c in columns))
    else:
        sql = 'UPDATE %s SET %s WHERE %s' % (table, ', '.join('"%s" = %s' % (c, literal(v)) for c, v in row.items()),
                                             where)
    psql(conninfo, sql)


INTEGERS = ('smallint', 'integer', 'bigint')
REALS = ('real', 'double precision', 'numeric')
TEXTS = ('text', 'character varying', 'character')


def columns(conninfo, table):
    """(name, type) of the table's columns but fid and globalid, in order."""
    output = psql(conninfo, "SELECT column_name, data_type FROM information_schema.columns "
                            "WHERE table_schema = 'public' AND table_name = '%s' ORDER BY ordinal_position" % table)
    found = [tuple(f.decode() for f in line.split(b'\0')) for line in output.splitlines()]
    return [(c, t) for c, t in found if c.lower() not in ('fid', 'globalid')]


def tagged(data_type, field):
    """One field as read ('N' for NULL, else 'V' and the value's text) -> the model's value."""
    if field[:1] == b'N':
        return ('null', None)
    text = field[1:]
    if data_type in INTEGERS:
        return ('integer', int(text))
    if data_type in REALS:
        return ('real', float(text))
    if data_type in TEXTS:
        return ('text', text)
    if data_type == 'USER-DEFINED':           # geometry: ISO WKB, Z kept (1001 for POINT Z)
        return ('geom', gpkg.parse_wkb(bytes.fromhex(text.decode()))[0])
    raise ValueError('column type %s not supported' % data_type)


def read_rows(conninfo, table, geometry_column):
    """key (table, normalized globalid) -> {column: tagged value}, every column but the fid:
    the shape of gpkg.read_rows. PostgreSQL prints a uuid lower-case without braces; the key
    is the package's form, upper-case. Floats print in their shortest exact form (the
    default extra_float_digits of 1)."""
    described = columns(conninfo, table)

    def shown(column, data_type):
        value = 'encode(ST_AsBinary("%s"), \'hex\')' % column if data_type == 'USER-DEFINED' else '"%s"::text' % column
        return "CASE WHEN \"%s\" IS NULL THEN 'N' ELSE 'V' || %s END" % (column, value)

    select = ', '.join(['globalid::text'] + [shown(c, t) for c, t in described])
    rows = {}
    for line in psql(conninfo, 'SELECT %s FROM %s' % (select, table)).splitlines():
        fields = line.split(b'\0')
        key = (table, gpkg.normalized_gid(fields[0]))
        if key in rows:
            raise ValueError('globalid %s appears twice in %s' % (key[1], table))
        rows[key] = {c: tagged(t, f) for (c, t), f in zip(described, fields[1:])}
    return rows
