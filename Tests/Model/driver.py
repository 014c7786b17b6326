#!/usr/bin/python3
"""Model-based randomized sync test: random edits by several clients, random syncs and
SIGKILLs, every sync checked against model.py's prediction.

    /usr/bin/python3 Tests/Model/driver.py --pkgbuild .build/debug/pkgbuild --seed 1 --steps 100
        [--kinds attr,geom,insert,delete,revert,replace,swap,latin1,office,oneway,kill]
        [--backend geopackage|postgresql [--pg CONNINFO]]
        [--pending-exit-2] [--shrink] [--verbose] [--keep DIR]

Runs under Debian's python3 (GDAL's bindings). GDAL and sqlite3 edit in this process; only
pkgbuild (and psql, for a PostgreSQL source) runs as a subprocess. Exit 0 when every sync matched the model, 1 on the first
mismatch (with the seed, the step, the steps so far and a diff).
"""

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpkg      # noqa: E402
import model     # noqa: E402
import pg        # noqa: E402

from osgeo import gdal, ogr, osr   # noqa: E402

gdal.UseExceptions()
# The driver judges GDAL by what it writes (its writes are tracked like anyone's: the
# triggers are core SQL), not by its messages; OrdinaryGeoPackageTests checks those.
gdal.PushErrorHandler('CPLQuietErrorHandler')

TABLE, GEOM = 'sites', 'geom'
UNIQUE = ((TABLE, 'code'),)
# oneway: syncs also upload-only and download-only (else bidirectional only).
ALL_KINDS = ['attr', 'geom', 'insert', 'delete', 'revert', 'replace', 'swap', 'latin1', 'office', 'oneway', 'kill']
AREAS = {'p1': (0.0, 0.0, 2.0, 2.0), 'p2': (1.0, 0.0, 3.0, 2.0), 'p3': (0.0, 1.0, 3.0, 3.0)}
GRID = [0.25 + 0.5 * i for i in range(8)]          # never on an area's edge
NAMES = ['alpha', 'beta', 'gamma', 'Do\u00f1a']
HEIGHTS = [1.5, 2.25, 100.0, 250.0]
ZS = [100.0, 250.0, 7.5]
CLIENTS = ['cli', 'gdal', 'sqlite']


class Mismatch(Exception):
    pass


def text(s):
    return ('text', s.encode('utf-8'))


def point(x, y, z):
    return ('geom', (1001, ((x, y, z),)))


class GeoPackageSource:
    """The source as a GeoPackage file, edited at the office by GDAL and sqlite3."""
    name = 'geopackage'
    office_clients = ['gdal', 'sqlite']
    # Every text goes up byte for byte (SQLite stores what it is given).
    utf8_only = False

    def __init__(self, world):
        self.address = os.path.join(world.dir, 'source.gpkg')
        world.make_source(self.address)

    def office_edits(self, kinds):
        """What the office does: a REPLACE and Latin-1 text are SQLite's."""
        return ['attr', 'attr', 'geom', 'insert', 'delete'] + (['replace'] if 'replace' in kinds else []) \
            + (['latin1'] if 'latin1' in kinds else [])

    def read_rows(self):
        return gpkg.read_rows(self.address, TABLE, GEOM)

    def drop(self):
        pass


class PostgreSQLSource:
    """The source as a PostGIS table in a database of its own, loaded from the same generated
    GeoPackage by ogr2ogr, edited at the office by psql and GDAL's PG driver."""
    name = 'postgresql'
    office_clients = ['gdal', 'psql']
    # A UTF8 database cannot store Latin-1 bytes: such an upload is a constraint conflict.
    utf8_only = True

    def __init__(self, world, server):
        generated = os.path.join(world.dir, 'generated.gpkg')
        world.make_source(generated)
        self.conninfo = pg.create_database(server)
        pg.load(self.conninfo, generated, TABLE)
        self.address = 'PG:' + self.conninfo

    def office_edits(self, kinds):
        """No REPLACE (PostgreSQL has none) and no Latin-1 text (a UTF8 database refuses it)."""
        return ['attr', 'attr', 'geom', 'insert', 'delete']

    def read_rows(self):
        return pg.read_rows(self.conninfo, TABLE, GEOM)

    def drop(self):
        pg.drop_database(self.conninfo)


class World:
    """The real files and the model side by side."""

    def __init__(self, binary, directory, rng, kinds, backend='geopackage', server=None):
        self.binary, self.dir, self.rng, self.kinds = binary, directory, rng, kinds
        self.codes = 0
        self.sync_seconds = 0.5
        self.has_verify = True
        self.kills = 0
        self.pending_exit_2 = False
        self.ranks = {}
        self.database = PostgreSQLSource(self, server) if backend == 'postgresql' else GeoPackageSource(self)
        self.source_path = self.database.address
        self.run_ok(['source', 'enable', self.source_path])
        self.source = self.database.read_rows()
        self.packages = {}
        for name, area in AREAS.items():
            path = self.package_path(name)
            self.run_ok(['create', '--area', ','.join(str(v) for v in area), '--features', self.source_path,
                         '-o', path])
            package = model.Package(name, area)
            package.rows = {k: dict(r) for k, r in self.source.items() if model.intersects(r, area, GEOM)}
            self.packages[name] = package

    # -- files and processes

    def package_path(self, name):
        return os.path.join(self.dir, name + '.pkg')

    def data_path(self, name):
        return os.path.join(self.package_path(name), 'data.gpkg')

    def run(self, arguments):
        return subprocess.run([self.binary] + arguments, capture_output=True, text=True, timeout=300)

    def run_ok(self, arguments):
        result = self.run(arguments)
        if result.returncode != 0:
            raise Mismatch('pkgbuild %s exited %d\n%s%s' % (' '.join(arguments), result.returncode,
                                                          result.stdout, result.stderr))
        return result

    def make_source(self, path):
        driver = ogr.GetDriverByName('GPKG')
        ds = driver.CreateDataSource(path)
        srs = osr.SpatialReference()
        srs.ImportFromEPSG(4326)
        layer = ds.CreateLayer(TABLE, srs, ogr.wkbPoint25D, ['GEOMETRY_NAME=' + GEOM, 'FID=fid'])
        for name, kind in (('name', ogr.OFTString), ('count', ogr.OFTInteger), ('height', ogr.OFTReal),
                           ('code', ogr.OFTString), ('globalid', ogr.OFTString)):
            field = ogr.FieldDefn(name, kind)
            if name == 'code':
                field.SetUnique(True)
            layer.CreateField(field)
        for i in range(28):
            feature = ogr.Feature(layer.GetLayerDefn())
            feature.SetField('name', NAMES[i % 3])
            feature.SetField('count', i % 4)
            feature.SetField('height', HEIGHTS[i % 4])
            feature.SetField('code', self.new_code())
            feature.SetField('globalid', self.new_gid())   # seeded, so that runs repeat
            x, y = GRID[i % 8], GRID[(i * 3) % 8]
            feature.SetGeometry(ogr.CreateGeometryFromWkt('POINT Z (%r %r %r)' % (x, y, ZS[i % 2])))
            layer.CreateFeature(feature)
        ds = None

    def ordered(self, keys):
        """Keys in the order the run first met them (not by globalid: pkgbuild edit --add
        picks its own), so that a seed replays the same steps."""
        keys = list(keys)
        for key in sorted(keys):
            self.ranks.setdefault(key, len(self.ranks))
        return sorted(keys, key=self.ranks.get)

    def new_code(self):
        self.codes += 1
        return 'C%03d' % self.codes

    # -- random values

    def random_value(self, column):
        if column == 'name':
            return text(self.rng.choice(NAMES))
        if column == 'count':
            return ('integer', self.rng.randrange(6))
        if column == 'height':
            return ('real', self.rng.choice(HEIGHTS))
        if column == 'latin1':
            return ('text', self.rng.choice([b'Do\xf1a', b'Espa\xf1a', b'caf\xe9']))
        raise ValueError(column)

    def changed_value(self, column, old):
        """A random value; one that differs from old unless the revert kind is on (a write of
        the value a row already holds is a no-op, like a revert)."""
        while True:
            value = self.random_value(column)
            if value != old or 'revert' in self.kinds:
                return value

    def random_point(self):
        return point(self.rng.choice(GRID), self.rng.choice(GRID), self.rng.choice(ZS))

    def moved_point(self, old):
        """A new position, or (one time in three, with the geom kind) the same x, y with
        another Z only."""
        if 'geom' in self.kinds and old[0] == 'geom' and old[1][1] and self.rng.random() < 1 / 3:
            x, y, z = old[1][1][0]
            return point(x, y, self.rng.choice([v for v in ZS if v != z]))
        while True:        # a move changes x or y (a Z-only change is the geom kind's)
            new = self.random_point()
            if old[0] != 'geom' or not old[1][1] or new[1][1][0][:2] != old[1][1][0][:2]:
                return new

    def new_row(self):
        return {'name': text(self.rng.choice(NAMES)), 'count': ('integer', self.rng.randrange(6)),
                'height': ('real', self.rng.choice(HEIGHTS)), 'code': text(self.new_code()),
                GEOM: self.random_point()}

    def new_gid(self):
        return '{%s}' % str(uuid.UUID(int=self.rng.getrandbits(128), version=4)).upper()


# -- the clients: each writes one change of one row into a database file

def sql_value(value):
    kind, v = value
    if kind == 'geom':
        (x, y, z), = v[1]
        return gpkg.point_z_blob(x, y, z)
    if kind == 'text':
        return v       # bytes: sqlite3 stores them as a BLOB unless cast; see sql_expression
    return v


def is_utf8(data):
    try:
        data.decode('utf-8')
        return True
    except UnicodeDecodeError:
        return False


def sql_expression(value):
    return 'CAST(? AS TEXT)' if value[0] == 'text' else '?'


def sqlite_write(path, gid, row, replace_gid=None):
    """Python's sqlite3 (default recursive_triggers = OFF): an update, a delete (row None), an
    insert (gid new) or, with replace_gid, an INSERT OR REPLACE on the old row's fid."""
    connection = gpkg.connect(path)
    try:
        connection.execute('BEGIN')
        fid = connection.execute('SELECT fid FROM %s WHERE upper(trim(globalid, \'{}\')) = ?' % TABLE,
                                 (gpkg.normalized_gid(gid),)).fetchone()
        if replace_gid is not None:
            columns = list(row)
            connection.execute('INSERT OR REPLACE INTO %s (fid, globalid, %s) VALUES (?, ?, %s)' % (
                TABLE, ', '.join('"%s"' % c for c in columns), ', '.join(sql_expression(row[c]) for c in columns)),
                [fid[0], replace_gid] + [sql_value(row[c]) for c in columns])
        elif row is None:
            connection.execute('DELETE FROM %s WHERE fid = ?' % TABLE, (fid[0],))
        elif fid is None:
            columns = list(row)
            connection.execute('INSERT INTO %s (globalid, %s) VALUES (?, %s)' % (
                TABLE, ', '.join('"%s"' % c for c in columns), ', '.join(sql_expression(row[c]) for c in columns)),
                [gid] + [sql_value(row[c]) for c in columns])
        else:
            columns = list(row)
            connection.execute('UPDATE %s SET %s WHERE fid = ?' % (
                TABLE, ', '.join('"%s" = %s' % (c, sql_expression(row[c])) for c in columns)),
                [sql_value(row[c]) for c in columns] + [fid[0]])
        connection.execute('COMMIT')
    finally:
        connection.close()


def sqlite_swap(path, gid_a, gid_b):
    """Swaps two rows' UNIQUE codes the way an app must: through NULL, in one transaction."""
    connection = gpkg.connect(path)
    try:
        connection.execute('BEGIN')
        where = ' WHERE upper(trim(globalid, \'{}\')) = ?'
        a = connection.execute('SELECT code FROM %s' % TABLE + where, (gpkg.normalized_gid(gid_a),)).fetchone()[0]
        b = connection.execute('SELECT code FROM %s' % TABLE + where, (gpkg.normalized_gid(gid_b),)).fetchone()[0]
        connection.execute('UPDATE %s SET code = NULL' % TABLE + where, (gpkg.normalized_gid(gid_a),))
        connection.execute('UPDATE %s SET code = CAST(? AS TEXT)' % TABLE + where, (a, gpkg.normalized_gid(gid_b)))
        connection.execute('UPDATE %s SET code = CAST(? AS TEXT)' % TABLE + where, (b, gpkg.normalized_gid(gid_a)))
        connection.execute('COMMIT')
    finally:
        connection.close()


def ogr_set(feature, column, value):
    kind, v = value
    if kind == 'geom':
        (x, y, z), = v[1]
        feature.SetGeometry(ogr.CreateGeometryFromWkt('POINT Z (%r %r %r)' % (x, y, z)))
    elif kind == 'null':
        feature.SetFieldNull(column)
    elif kind == 'text':
        feature.SetField(column, v.decode('utf-8'))
    else:
        feature.SetField(column, v)


def gdal_write(path, gid, row):
    """GDAL's layer API, opened for update: SetFeature, DeleteFeature or CreateFeature. path is
    a GeoPackage or a PostgreSQL address (PG:..., where globalid is a uuid)."""
    ds = ogr.Open(path, 1)
    try:
        layer = ds.GetLayerByName(TABLE)
        if path.startswith('PG:'):
            layer.SetAttributeFilter("globalid = '%s'" % gpkg.normalized_gid(gid))
        else:
            layer.SetAttributeFilter("upper(trim(globalid, '{}')) = '%s'" % gpkg.normalized_gid(gid))
        feature = layer.GetNextFeature()
        layer.SetAttributeFilter(None)
        if feature is None:
            feature = ogr.Feature(layer.GetLayerDefn())
            feature.SetField('globalid', gid)
            for column, value in row.items():
                ogr_set(feature, column, value)
            result = layer.CreateFeature(feature)
        elif row is None:
            result = layer.DeleteFeature(feature.GetFID())
        else:
            for column, value in row.items():
                ogr_set(feature, column, value)
            result = layer.SetFeature(feature)
        if result != 0:
            # GDAL reports a refused write by its return code (and prints SQLite's message).
            raise RuntimeError('GDAL refused the write (OGRErr %d): %s' % (result, gdal.GetLastErrorMsg()))
    finally:
        ds = None


def cli_arguments(row):
    arguments = []
    for column, (kind, v) in row.items():
        if kind == 'geom':
            (x, y, z), = v[1]
            arguments += ['--geometry', 'POINT Z (%r %r %r)' % (x, y, z)]
        elif kind == 'null':
            arguments += ['--null', column]
        else:
            arguments += ['--set', '%s=%s' % (column, v.decode('utf-8') if kind == 'text' else repr(v))]
    return arguments


# -- steps: each is a JSON-able dict, generated from the model's state, then applied

def choose_edit(world, kinds):
    rng = world.rng
    options = [k for k in kinds if k in ('attr', 'geom', 'insert', 'delete', 'revert', 'replace', 'swap',
                                         'latin1', 'office')]
    kind = rng.choice(options)
    name = rng.choice(sorted(world.packages))
    package = world.packages[name]
    keys = world.ordered(package.rows)
    client = rng.choice(CLIENTS)
    if kind == 'office':
        return choose_office(world, kinds)
    if kind in ('attr', 'latin1', 'geom', 'delete', 'replace') and keys:
        key = rng.choice(keys)
        if kind == 'attr':
            column = rng.choice(['name', 'count', 'height'])
            return {'kind': kind, 'client': client, 'package': name, 'gid': key[1],
                    'row': {column: world.changed_value(column, package.rows[key].get(column))}}
        if kind == 'latin1':
            return {'kind': kind, 'client': 'sqlite', 'package': name, 'gid': key[1],
                    'row': {'name': world.random_value('latin1')}}
        if kind == 'geom':
            return {'kind': kind, 'client': client, 'package': name, 'gid': key[1],
                    'row': {GEOM: world.moved_point(package.rows[key][GEOM])}}
        if kind == 'delete':
            return {'kind': kind, 'client': client, 'package': name, 'gid': key[1], 'row': None}
        row = dict(package.rows[key])
        row['name'] = world.random_value('name')
        return {'kind': kind, 'client': 'sqlite', 'package': name, 'gid': key[1], 'row': row,
                'new_gid': world.new_gid()}
    if kind == 'revert':
        reverts = world.ordered(k for k, (b, c) in package.pending().items() if b is not None and c is not None)
        if reverts:
            key = rng.choice(reverts)
            return {'kind': kind, 'client': rng.choice(['gdal', 'sqlite']), 'package': name, 'gid': key[1],
                    'row': dict(package.base[key])}
    if kind == 'swap' and len(keys) >= 2:
        a, b = rng.sample(keys, 2)
        return {'kind': kind, 'client': 'sqlite', 'package': name, 'gid': a[1], 'other': b[1]}
    return {'kind': 'insert', 'client': client, 'package': name, 'gid': world.new_gid(), 'row': world.new_row()}


def choose_office(world, kinds):
    rng = world.rng
    keys = world.ordered(world.source)
    client = rng.choice(world.database.office_clients)
    what = rng.choice(world.database.office_edits(kinds))
    step = {'kind': 'office', 'client': client, 'what': what}
    if what == 'insert' or not keys:
        return dict(step, what='insert', gid=world.new_gid(), row=world.new_row())
    key = rng.choice(keys)
    if what == 'attr':
        column = rng.choice(['name', 'count', 'height'])
        return dict(step, gid=key[1], row={column: world.changed_value(column, world.source[key].get(column))})
    if what == 'latin1':
        return dict(step, client='sqlite', gid=key[1], row={'name': world.random_value('latin1')})
    if what == 'geom':
        return dict(step, gid=key[1], row={GEOM: world.moved_point(world.source[key][GEOM])})
    if what == 'delete':
        return dict(step, gid=key[1], row=None)
    row = dict(world.source[key])
    row['name'] = world.random_value('name')
    return dict(step, client='sqlite', gid=key[1], row=row, new_gid=world.new_gid())


def choose_sync(world, kinds):
    rng = world.rng
    return {'kind': 'kill' if 'kill' in kinds and rng.random() < 0.3 else 'sync',
            'package': rng.choice(sorted(world.packages)),
            'direction': rng.choice([model.BIDIRECTIONAL, model.BIDIRECTIONAL, model.UPLOAD, model.DOWNLOAD]
                                    if 'oneway' in kinds else [model.BIDIRECTIONAL]),
            'policy': rng.choice([model.FAIL, model.SOURCE_WINS, model.PACKAGE_WINS]),
            'delay': rng.random()}


def apply_edit(world, step):
    """Writes the edit with its client into the real file, and into the model."""
    key = (TABLE, gpkg.normalized_gid(step['gid']))
    office = step['kind'] == 'office'
    path = world.source_path if office else world.data_path(step['package'])
    old = world.source.get(key) if office else world.packages[step['package']].rows.get(key)
    if step['kind'] == 'swap':
        other = (TABLE, gpkg.normalized_gid(step['other']))
        package = world.packages[step['package']]
        sqlite_swap(path, step['gid'], step['other'])
        a, b = dict(package.rows[key]), dict(package.rows[other])
        a['code'], b['code'] = b['code'], a['code']
        package.write(key, a)
        package.write(other, b)
        return
    row = step['row']
    try:
        changes = write_with_client(world, step, key, old, row, path)
    except (sqlite3.IntegrityError, RuntimeError) as refusal:
        if 'UNIQUE' not in str(refusal).upper():
            raise
        return                            # the client refused the edit (a unique value held): nothing changed
    for k, r in changes:
        if office:
            if r is None:
                world.source.pop(k, None)
            else:
                world.source[k] = dict(r)
        else:
            world.packages[step['package']].write(k, r)


def write_with_client(world, step, key, old, row, path):
    """Writes one edit with the step's client. Returns the changes for the model."""
    if 'new_gid' in step:
        sqlite_write(path, step['gid'], row, replace_gid=step['new_gid'])
        # SQLite's REPLACE also deletes every other row holding a value of a UNIQUE column.
        rows = world.source if step['kind'] == 'office' else world.packages[step['package']].rows
        held = [k for k, r in rows.items() if k != key and r.get('code') == row.get('code')]
        changes = [(key, None)] + [(k, None) for k in held] + [((TABLE, gpkg.normalized_gid(step['new_gid'])), row)]
    else:
        full = None if row is None else dict(old or {}, **row)
        # GDAL's Python bindings and pkgbuild's command line take text as str: text that is
        # not UTF-8 (a revert to Latin-1 bytes) can only be written through sqlite3.
        client = step['client']
        if row is not None and any(v[0] == 'text' and not is_utf8(v[1]) for v in row.values()):
            client = 'sqlite'
        if client == 'psql':
            pg.office_write(world.database.conninfo, TABLE, step['gid'], row, exists=old is not None)
        elif client == 'sqlite':
            sqlite_write(path, step['gid'], row)
        elif client == 'gdal':
            gdal_write(path, step['gid'], row)
        elif row is None:
            world.run_ok(['edit', world.package_path(step['package']), '--layer', TABLE, '--id', step['gid'], '--delete'])
        elif old is None:
            world.run_ok(['edit', world.package_path(step['package']), '--layer', TABLE, '--add']
                         + cli_arguments(row))
            key = fetch_new_key(path, row)
            world.ordered([key])
        else:
            world.run_ok(['edit', world.package_path(step['package']), '--layer', TABLE, '--id', step['gid']]
                         + cli_arguments(row))
        changes = [(key, full)]
    return changes


def fetch_new_key(path, row):
    """pkgbuild edit --add chooses the globalid: find the row by its (fresh) unique code."""
    connection = gpkg.connect(path)
    try:
        gid = connection.execute('SELECT globalid FROM %s WHERE code = CAST(? AS TEXT)' % TABLE,
                                 (row['code'][1],)).fetchone()[0]
        return (TABLE, gpkg.normalized_gid(gid))
    finally:
        connection.close()


def sync_command(world, step):
    return [world.binary, 'sync', world.package_path(step['package']), '--source', world.source_path,
            '--on-conflict', step['policy'], '--direction', step['direction'], '--json']


def apply_sync(world, step):
    """Runs the sync (killed once at a random instant first, for a kill step) and checks the
    result against the model's prediction for one uninterrupted sync."""
    command = sync_command(world, step)
    if step['kind'] == 'kill':
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(step['delay'] * world.sync_seconds * 1.2)
        process.send_signal(signal.SIGKILL)
        world.kills += process.wait() == -signal.SIGKILL
    began = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    world.sync_seconds = 0.7 * world.sync_seconds + 0.3 * (time.monotonic() - began)
    package = world.packages[step['package']]
    code, source, predicted = model.sync(world.source, package, step['direction'], step['policy'], GEOM, UNIQUE,
                                         utf8_only=world.database.utf8_only)
    world.source, world.packages[step['package']] = source, predicted
    problems = []
    if world.pending_exit_2 and code == 0 and result.returncode == 2 and report_status(result) == 'completed-with-pending':
        code = 2
    if result.returncode != code:
        problems.append('exit %d, the model expects %d\n%s%s' % (result.returncode, code, result.stdout,
                                                                 result.stderr))
    problems += compare('source', world.source, world.database.read_rows())
    for name in sorted(world.packages):
        problems += compare(name, world.packages[name].rows, gpkg.read_rows(world.data_path(name), TABLE, GEOM))
    if world.has_verify:
        verify = world.run(['verify', world.package_path(step['package']), '--source', world.source_path])
        if verify.returncode == 64 and 'unknown' in (verify.stderr + verify.stdout).lower():
            world.has_verify = False
        elif verify.returncode != 0:
            problems.append('pkgbuild verify exited %d\n%s%s' % (verify.returncode, verify.stdout, verify.stderr))
    if problems:
        raise Mismatch('\n'.join(problems))


def report_status(result):
    try:
        return json.loads(result.stdout).get('status')
    except ValueError:
        return None


class Undecided(Exception):
    pass


def show(value):
    kind, v = value
    if kind == 'geom':
        return 'geom%d%r' % v
    if kind == 'text':
        try:
            return repr(v.decode('utf-8'))
        except UnicodeDecodeError:
            return 'bytes:' + v.hex()
    return '%s:%r' % (kind, v)


def compare(name, expected, actual):
    """Lines naming each row and column where the model and the file differ."""
    lines = []
    for key in sorted(set(expected) | set(actual)):
        e, a = expected.get(key), actual.get(key)
        if e == a:
            continue
        if e is None or a is None:
            lines.append('%s %s: model %s, file %s' % (name, key[1], 'absent' if e is None else 'has it',
                                                       'absent' if a is None else 'has it')
                         + ' ' + ', '.join('%s=%s' % (c, show(v)) for c, v in sorted((e or a).items())))
            continue
        for column in sorted(set(e) | set(a)):
            if e.get(column) != a.get(column):
                lines.append('%s %s.%s: model %s, file %s' % (name, key[1], column,
                                                             show(e.get(column, ('null', None))),
                                                             show(a.get(column, ('null', None)))))
    return lines


def encode(step):
    """A step for printing: tagged values as text."""
    def plain(value):
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
            return show(value)
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        return value
    return {k: plain(v) for k, v in step.items()}


def replayable(world, step):
    """In a replay with steps left out, whether the rows a step names are still there."""
    if step['kind'] in ('sync', 'kill'):
        return True
    rows = world.source if step['kind'] == 'office' else world.packages[step['package']].rows
    gids = [step['gid']] + ([step['other']] if 'other' in step else [])
    present = [(TABLE, gpkg.normalized_gid(g)) in rows for g in gids]
    inserting = step['kind'] == 'insert' or step.get('what') == 'insert'
    return not any(present) if inserting else all(present)


def execute(arguments, replay=None, quiet=False):
    """One run: random steps from the seed, or the steps of replay (those whose rows are
    still there). Returns (steps, failure text or None, directory)."""
    rng = random.Random(arguments.seed)
    kinds = arguments.kinds
    directory = arguments.keep or tempfile.mkdtemp(prefix='pkgbuild-model-')
    os.makedirs(directory, exist_ok=True)
    steps = []
    world = None
    try:
        world = World(os.path.abspath(arguments.pkgbuild), directory, rng, kinds, arguments.backend, arguments.pg)
        world.pending_exit_2 = arguments.pending_exit_2
        for number in range(1, (len(replay) if replay is not None else arguments.steps) + 1):
            if replay is not None:
                step = replay[number - 1]
                if not replayable(world, step):
                    continue
            else:
                # About one step in three is a sync; syncs keep conflicts from piling up.
                step = choose_sync(world, kinds) if rng.random() < 0.35 else choose_edit(world, kinds)
            steps.append(step)
            if arguments.verbose and not quiet:
                print('%4d %s' % (len(steps), json.dumps(encode(step), ensure_ascii=False)), flush=True)
            if step['kind'] in ('sync', 'kill'):
                apply_sync(world, step)
            else:
                apply_edit(world, step)
    except Undecided as note:
        print('seed %d: stopped at step %d, undecided: %s' % (arguments.seed, len(steps), note))
    except Mismatch as failure:
        return steps, str(failure) + kept_database(world, arguments, quiet), directory
    except Exception as failure:      # a driver or client error: shown like a mismatch
        return steps, '%s: %s' % (type(failure).__name__, failure) + kept_database(world, arguments, quiet), directory
    world.database.drop()
    if not quiet:
        print('seed %d: %d steps (%d syncs, %d killed mid-run) matched the model' % (
            arguments.seed, len(steps), sum(s['kind'] in ('sync', 'kill') for s in steps), world.kills))
    return steps, None, directory


def kept_database(world, arguments, quiet):
    """After a failure, a PostgreSQL source is kept for a look (its cluster may be throwaway),
    but not a shrinking replay's."""
    if world is None or world.database.name != 'postgresql':
        return ''
    if quiet and not arguments.keep:
        world.database.drop()
        return ''
    return '\nsource kept: %s' % world.database.address


def shrink(arguments, steps):
    """Leaves out ever smaller runs of steps while the replay still fails; returns the
    shortest failing list found and its failure."""
    failure = None
    chunk = max(1, len(steps) // 2)
    while chunk >= 1:
        i = 0
        while i < len(steps):
            trial = steps[:i] + steps[i + chunk:]
            kept, text, directory = execute(arguments, trial, quiet=True)
            if not arguments.keep:
                shutil.rmtree(directory, ignore_errors=True)
            if text is not None:
                steps, failure = kept, text
            else:
                i += chunk
        chunk //= 2
    return steps, failure


def report(arguments, steps, failure, heading):
    print('%s: seed %d, step %d of %d, kinds %s, backend %s' % (heading, arguments.seed, len(steps), arguments.steps,
                                                               ','.join(arguments.kinds), arguments.backend))
    for number, step in enumerate(steps, 1):
        print('%4d %s' % (number, json.dumps(encode(step), ensure_ascii=False)))
    print('--- model vs files after step %d:' % len(steps))
    print(failure)


def run(arguments):
    began = time.monotonic()
    steps, failure, directory = execute(arguments)
    if failure is None:
        if not arguments.keep:
            shutil.rmtree(directory, ignore_errors=True)
        print('in %.1f s' % (time.monotonic() - began))
        return 0
    report(arguments, steps, failure, 'FAILED')
    print('files kept in %s' % directory)
    if arguments.shrink:
        shrunk, shrunk_failure = shrink(arguments, steps)
        if shrunk_failure is not None:
            report(arguments, shrunk, shrunk_failure, 'SHRUNK (a replay; kills land at other instants)')
    return 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--pkgbuild', required=True, help='the pkgbuild executable')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--steps', type=int, default=100)
    parser.add_argument('--kinds', default=','.join(ALL_KINDS),
                        type=lambda s: [k for k in s.split(',') if k],
                        help='step kinds, of: ' + ','.join(ALL_KINDS))
    parser.add_argument('--backend', choices=['geopackage', 'postgresql'], default='geopackage',
                        help='the source: a GeoPackage file, or a PostGIS table in a fresh database')
    parser.add_argument('--pg', default=os.environ.get('PKGBUILD_TEST_PG'),
                        help='libpq conninfo of a PostgreSQL server (a superuser, PostGIS in template1) '
                             'for --backend postgresql; PKGBUILD_TEST_PG by default')
    parser.add_argument('--pending-exit-2', action='store_true',
                        help="accept exit 2 for a sync that completed leaving edits pending (the code's "
                             "behaviour before issue 10's exit codes; the contract says 0)")
    parser.add_argument('--shrink', action='store_true', help='on a failure, look for a shorter failing step list')
    parser.add_argument('--verbose', action='store_true', help='print each step as it runs')
    parser.add_argument('--keep', help='work in this directory and keep it')
    arguments = parser.parse_args()
    unknown = [k for k in arguments.kinds if k not in ALL_KINDS]
    if unknown:
        parser.error('unknown step kind(s) %s; the kinds are %s' % (','.join(unknown), ','.join(ALL_KINDS)))
    if arguments.backend == 'postgresql' and not arguments.pg:
        parser.error('--backend postgresql needs --pg CONNINFO or PKGBUILD_TEST_PG '
                     '(scripts/with-pg-test-cluster starts a throwaway cluster and sets it)')
    sys.exit(run(arguments))


if __name__ == '__main__':
    main()
