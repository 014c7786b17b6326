"""The model's rules by example, so that the specification itself is checked before it judges
pkgbuild. Run: /usr/bin/python3 -m unittest discover -s Tests/Model -p 'test_model.py'"""

import unittest

import model

G = 'geom'
K, K2 = ('t', 'A'), ('t', 'B')
AREA = (0, 0, 1, 1)


def row(name='a', code='C1', x=0.5, y=0.5, z=1.0):
    return {'name': ('text', name.encode('latin-1')), 'code': ('text', code.encode()),
            G: ('geom', (1001, ((x, y, z),)))}


def start(**rows):
    source = {('t', k): v for k, v in rows.items()}
    return source, model.Package('p', AREA, {k: dict(v) for k, v in source.items()})


class ModelTests(unittest.TestCase):
    def sync(self, source, package, direction=model.BIDIRECTIONAL, policy=model.FAIL):
        return model.sync(source, package, direction, policy, G, (('t', 'code'),))

    def test_one_side_changed_wins(self):
        source, package = start(A=row())
        package.write(K, row(name='field'))
        code, s, p = self.sync(source, package)
        self.assertEqual((code, s[K]['name'], p.rows[K]['name'], p.base), (0, ('text', b'field'), ('text', b'field'), {}))

    def test_columns_merge_and_same_value_is_no_conflict(self):
        source, package = start(A=row())
        package.write(K, row(name='same', z=2.0))
        source[K] = row(name='same', code='C9')
        code, s, _ = self.sync(source, package)
        self.assertEqual((code, s[K]), (0, row(name='same', code='C9', z=2.0)))

    def test_conflict_under_each_policy(self):
        for policy, expected in ((model.SOURCE_WINS, b'office'), (model.PACKAGE_WINS, b'field')):
            source, package = start(A=row())
            package.write(K, row(name='field'))
            source[K] = row(name='office')
            code, s, p = self.sync(source, package, policy=policy)
            self.assertEqual((code, s[K]['name'][1], p.rows[K]['name'][1]), (0, expected, expected))
        source, package = start(A=row())
        package.write(K, row(name='field'))
        source[K] = row(name='office')
        code, s, p = self.sync(source, package)
        self.assertEqual((code, s, p.rows[K]['name'][1]), (2, source, b'field'))

    def test_update_against_delete(self):
        source, package = start(A=row())
        package.write(K, None)
        source[K] = row(name='office')
        self.assertEqual(self.sync(source, package, policy=model.PACKAGE_WINS)[1], {})
        code, s, p = self.sync(source, package, policy=model.SOURCE_WINS)
        self.assertEqual((s[K], p.rows[K]), (row(name='office'), row(name='office')))

    def test_z_and_bytes_are_compared_exactly(self):
        source, package = start(A=row())
        package.write(K, row(z=250.0))
        self.assertEqual(list(package.pending()), [K])            # a Z-only change is a change
        package.write(K, row(z=250.0, name='Do\u00f1a'))
        _, s, _ = self.sync(source, package)
        self.assertEqual(s[K], row(z=250.0, name='Do\u00f1a'))
        self.assertEqual(s[K]['name'], ('text', b'Do\xf1a'))

    def test_direction_not_carrying_an_edit_leaves_it_pending(self):
        source, package = start(A=row(), B=row(code='C2'))
        package.write(K, row(name='field'))
        source[K2] = row(name='office', code='C2')
        code, s, p = self.sync(source, package, direction=model.DOWNLOAD)
        self.assertEqual((code, s[K]['name'][1], p.rows[K2]['name'][1], list(p.pending())), (0, b'a', b'office', [K]))
        code, s, p = self.sync(source, package, direction=model.UPLOAD)
        self.assertEqual((code, s[K]['name'][1], p.rows[K2]['name'][1], p.pending()), (0, b'field', b'a', {}))

    def test_reverted_edit_lets_the_source_change_come_down(self):
        source, package = start(A=row())
        package.write(K, row(name='field'))
        package.write(K, row())
        source.pop(K)
        code, s, p = self.sync(source, package, policy=model.PACKAGE_WINS)
        self.assertEqual((code, s, p.rows), (0, {}, {}))

    def test_a_row_written_back_to_its_base_is_no_change(self):
        source, package = start(A=row())
        package.write(K, row(name='field'))
        package.write(K, row())                                    # put back
        source[K] = row(name='office')
        code, s, p = self.sync(source, package, direction=model.UPLOAD)
        self.assertEqual((code, s[K], p.rows[K], p.base), (0, row(name='office'), row(), {}))

    def test_membership(self):
        source, package = start(A=row(), B=row(code='C2'))
        package.write(K, row(x=3.0))
        source[K2] = row(code='C2', y=5.0)
        code, s, p = self.sync(source, package)
        self.assertEqual((code, K in s, p.rows), (0, True, {}))

    def test_unique_shift_syncs_exchange_and_collision_are_refused(self):
        # B takes A's value, A a new one: an order exists (A first).
        source, package = start(A=row(code='C1'), B=row(code='C2'))
        package.write(K2, row(code='C1'))
        package.write(K, row(code='C3'))
        code, s, _ = self.sync(source, package)
        self.assertEqual((code, s[K]['code'][1], s[K2]['code'][1]), (0, b'C3', b'C1'))
        # An exchange has no order: refused, both rows stay pending.
        source, package = start(A=row(code='C1'), B=row(code='C2'))
        package.write(K, row(code='C2'))
        package.write(K2, row(code='C1'))
        self.assertEqual(self.sync(source, package)[0], 2)
        code, s, p = self.sync(source, package, policy=model.SOURCE_WINS)
        self.assertEqual((code, s, set(p.pending())), (2, source, {K, K2}))
        source, package = start(A=row(code='C1'), B=row(code='C2'))
        package.write(K, row(code='C2'))
        self.assertEqual(self.sync(source, package)[0], 2)
        code, s, p = self.sync(source, package, policy=model.SOURCE_WINS)
        self.assertEqual((code, s, list(p.pending())), (2, source, [K]))
        code, s, p = self.sync(source, package, policy=model.PACKAGE_WINS)
        self.assertEqual((code, s, list(p.pending())), (2, source, [K]))

    def test_upload_only_settled_row_meets_unique_values_in_the_package(self):
        K3 = ('t', 'C')
        # A settled row whose merged value a pending row holds waits, keeping the copy it had.
        source, package = start(A=row(code='C1'), B=row(code='C2'))
        source[K] = row(code='C5')                 # the office changed A's code
        package.write(K, row(code='C1', x=0.25))  # the field moved A
        package.write(K3, row(code='C5'))         # and inserted a row with the office's new code
        code, s, p = self.sync(source, package, direction=model.UPLOAD, policy=model.SOURCE_WINS)
        self.assertEqual((code, s[K], p.rows[K], set(p.pending())), (2, row(code='C5', x=0.25), row(code='C1', x=0.25), {K3}))
        # A mere copy of the source's row in the way of a settled row comes again from the source.
        source, package = start(A=row(code='C1'), B=row(code='C2'))
        source[K2] = row(code='C7')                # the office gave B a new code, then the field
        package.write(K, row(code='C2'))          # gave A B's old one: the package's B is stale
        code, s, p = self.sync(source, package, direction=model.UPLOAD)
        self.assertEqual((code, s[K], p.rows[K], p.rows[K2]), (0, row(code='C2'), row(code='C2'), row(code='C7')))
        del source[K2]                            # and when the source's B is gone, it leaves
        package = model.Package('p', AREA, {K: row(code='C1'), K2: row(code='C2')})
        package.write(K, row(code='C2'))
        code, s, p = self.sync(source, package, direction=model.UPLOAD)
        self.assertEqual((code, K2 in p.rows), (0, False))

    def test_text_a_utf8_only_source_cannot_store_is_refused_and_kept(self):
        latin1 = {'name': ('text', b'Do\xf1a')}
        for policy in (model.FAIL, model.SOURCE_WINS, model.PACKAGE_WINS):
            source, package = start(A=row(), B=row(code='C2'))
            package.write(K, dict(row(), **latin1))
            package.write(K2, row(name='field', code='C2'))
            code, s, p = model.sync(source, package, model.BIDIRECTIONAL, policy, G, (('t', 'code'),), utf8_only=True)
            moved = policy != model.FAIL                     # under fail nothing changes
            self.assertEqual((code, s[K], p.rows[K]['name'], list(p.pending())),
                             (2, row(), latin1['name'], [K] if moved else [K, K2]))
            self.assertEqual(s[K2]['name'], ('text', b'field' if moved else b'a'))
        # A GeoPackage source stores it as given.
        source, package = start(A=row())
        package.write(K, dict(row(), **latin1))
        self.assertEqual(self.sync(source, package)[1][K]['name'], latin1['name'])


if __name__ == '__main__':
    unittest.main()
