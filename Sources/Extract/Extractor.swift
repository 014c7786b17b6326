import Foundation
import Geodatabase
import Geometry
import SQLite
import TilePackage

/// Plans, estimates and builds offline packages.
public enum Extractor {
    /// What one layer holds after a build (or would hold, for an estimate).
    public struct LayerResult: Sendable, Hashable {
        public var name: String
        public var dataType: String
        public var geometryType: String?
        public var crs: String?
        /// Rows chosen by the area (or whole attribute tables).
        public var selected: Int
        /// Rows added because they are related to the area's rows.
        public var related: Int
        /// Features skipped for a geometry that could not be read (`--skip-invalid`).
        public var skippedInvalid: Int
        public var cut: LayerCut
        public var count: Int { selected + related }
    }

    /// The outcome of `create` or `estimate`.
    public struct Result: Sendable, Hashable {
        public var layers: [LayerResult]
        public var generation: Int64?
        public var replicaID: String?
        public var package: String?
        public var warnings: [String]
        /// Basemap tiles in the package (create), or the coverage's tile count (estimate).
        public var tiles: Int?
        /// Tiles per zoom, the zooms within `--max-tiles` and the source's byte estimate, for
        /// `estimate`.
        public var tileCounts: [TilePlan.ZoomCount] = []
        public var tileFit: TilePlan.Fit?
        public var maxTiles: Int?
        public var tileBytes: Int?
    }

    /// Counts what `create` would write, writing nothing.
    public static func estimate(_ request: ExtractRequest, isCancelled: @escaping @Sendable () -> Bool = { false },
                                progress: @escaping ExtractProgress = { _, _, _ in }) throws -> Result {
        let prepared = try prepare(request)
        // The tally counts what was read; the rows themselves are dropped.
        var rowsRead = 0
        let tally = try read(prepared, send: { message in
            if case .rows(_, let rows) = message { rowsRead += rows.count; progress(.features, rowsRead, 0) }
            return true
        }, isCancelled: isCancelled)
        var estimate = result(prepared, tally: tally, replicaID: nil, package: nil)
        if let basemap = prepared.basemap {
            let e = try basemap.estimate(isCancelled: isCancelled)
            estimate.tiles = basemap.plan.totalCount
            estimate.tileCounts = basemap.plan.counts
            estimate.tileFit = basemap.plan.fit(within: basemap.request.maxTiles)
            estimate.maxTiles = basemap.request.maxTiles
            estimate.tileBytes = e.bytes
            estimate.warnings += e.warnings
        }
        return estimate
    }

    /// Builds the package: validates everything first (nothing is written for bad input),
    /// reads the source in one transaction on a worker thread while this thread writes
    /// data.gpkg, then writes the manifest and renames the package into place.
    ///
    /// A replica that an interrupted run of the same output registered (pending, its package
    /// never completed) is unregistered, so the re-run leaves one replica for one package.
    /// - Parameter checkpoint: for tests: called at each ``ExtractCheckpoint``; an error it
    ///   throws ends the build there as a crash would (nothing cleaned up behind it).
    /// - Parameter tileProgress: basemap tiles done out of the total, as the copy goes.
    public static func create(_ request: ExtractRequest, toolVersion: String = "0",
                              isCancelled: @escaping @Sendable () -> Bool = { false },
                              progress: @escaping ExtractProgress = { _, _, _ in },
                              checkpoint: (@Sendable (ExtractCheckpoint) throws -> Void)? = nil) throws -> Result {
        let prepared = try prepare(request)
        try prepared.basemap?.checkTileCount()
        if request.register { try refreshSourceTriggers(request.source) }
        let output = URL(fileURLWithPath: request.output).standardizedFileURL
        let directory = try PackageDirectory.open(output: output, fingerprint: request.fingerprint, force: request.force,
                                                  inputs: request.inputs)
        let abandoned = directory.abandonedReplica.map(discardAbandoned) ?? []
        @Sendable func reach(_ point: ExtractCheckpoint) throws {
            do { try checkpoint?(point) } catch { throw CheckpointStop(underlying: error) }
        }
        // The replica registered by this run, until its package is in place.
        var registered: (source: SourceGeodatabase, id: String)?
        do {
            let writer = try GeoPackageWriter(path: directory.dataURL.path)
            for srs in prepared.spatialReferenceSystems { try writer.addSpatialReferenceSystem(srs) }
            let queue = BoundedQueue<ExtractMessage>(capacity: 8)
            let outcome = WorkerOutcome()
            let worker = Thread {
                do {
                    outcome.tally = try read(prepared, send: { queue.put($0) }, isCancelled: isCancelled,
                                             snapshotRead: { try reach(.snapshotRead) })
                } catch {
                    outcome.error = error
                }
                queue.close()
                outcome.finished.signal()
            }
            worker.stackSize = 4 << 20
            worker.start()
            var writeError: Error?
            var rowsWritten = 0
            while let message = queue.take() {
                guard writeError == nil else { continue }
                do {
                    switch message {
                    case .createTable(let table): try writer.createTable(table)
                    case .rows(let table, let rows):
                        for row in rows { try writer.insert(into: table, row.values, envelope: row.envelope) }
                        rowsWritten += rows.count
                        progress(.features, rowsWritten, 0)
                    case .sql(let sql, let arguments): try writer.execute(sql, arguments)
                    }
                } catch {
                    writeError = error
                    queue.close()
                }
            }
            outcome.finished.wait()
            if let error = outcome.error ?? writeError { throw error }
            guard let tally = outcome.tally else { throw ExtractError(.failure, "the reading worker stopped") }
            try writer.finish()
            let replicaID: String? = request.register ? GlobalID.make() : nil
            var result = result(prepared, tally: tally, replicaID: replicaID, package: output.path)
            result.warnings += abandoned
            // Edits made in the package from now on are recorded, whoever makes them.
            // Related Tables mapping tables copied with their global ids: their links sync too.
            let mappings = try Set(prepared.relationships.compactMap(\.mappingTable)).sorted().filter {
                try writer.database.scalar("SELECT 1 FROM pragma_table_info(?) WHERE lower(name) = 'globalid'", [.text($0)]) != nil
            }
            let tracked = prepared.plans.filter { $0.info.globalIDColumn != nil }.map(\.name) + mappings
            if !tracked.isEmpty {
                do { try PackageChangeTracking(connection: writer.database).install(tables: tracked) } catch {
                    throw ExtractError(.failure, "cannot install change tracking in the package: \(error)")
                }
            }
            // One moment for data.gpkg and manifest.json, which must agree.
            let created = ISO8601DateFormatter().string(from: Date())
            try PackageMetadata.write(to: writer.database, values: [
                "format_version": "\(PackageManifest.currentFormatVersion)",
                "replica_id": replicaID,
                "source": URL(fileURLWithPath: request.source).standardizedFileURL.path,
                "extraction_generation": tally.generation.map(String.init),
                "sync_generation": tally.generation.map(String.init),
                "area_wkt": prepared.area.geometry.wkt,
                "area_crs": prepared.area.crs,
                "created": created,
                PackageMetadata.syncRecordsKey: PackageMetadata.syncRecordsValue,
            ], layers: zip(prepared.plans, result.layers).map { ($0, $1.cut) })
            try OwnTables.register(in: writer.database, side: .package)
            let clipped = zip(prepared.plans, result.layers).filter { $1.cut.clipped && tracked.contains($0.name) }.map(\.0.name)
            do { try PackageChangeTracking(connection: writer.database).installClipGuards(tables: clipped) } catch {
                throw ExtractError(.failure, "cannot install the clipped layers' triggers in the package: \(error)")
            }
            try writer.commit()

            var tiles: PackageManifest.Tiles?
            if let basemap = prepared.basemap {
                let report: TileCopyReport
                do {
                    report = try basemap.copy(to: directory.basemapURL.path, progress: { progress(.tiles, $0, $1) },
                                              isCancelled: isCancelled)
                } catch is CancellationError {
                    throw ExtractError(.cancelled, "cancelled")
                } catch let error as TilePackageError where error.kind == .incomplete {
                    throw ExtractError(.incomplete, error.message)
                }
                result.warnings += report.warnings
                result.tiles = report.written + report.resumed
                // The zooms really held: a source without tiles at the deepest zooms asked for
                // leaves them out, and the manifest says so rather than claim them.
                let held = report.zooms ?? basemap.request.minZoom...basemap.request.maxZoom
                tiles = .init(file: PackageDirectory.basemapFileName, minZoom: held.lowerBound, maxZoom: held.upperBound,
                              count: report.written + report.resumed, source: try basemap.identity(),
                              requestedMinZoom: basemap.request.minZoom, requestedMaxZoom: basemap.request.maxZoom)
            }
            let manifest = try makeManifest(prepared, result: result, directory: directory, toolVersion: toolVersion,
                                            created: created, tiles: tiles)
            try manifest.encoded().write(to: directory.manifestURL)

            // Registered as pending before the rename, active after: a crash between the two
            // leaves a replica `source status` shows as pending, never a silent orphan.
            var source: SourceGeodatabase?
            if let replicaID {
                let geoPackage: GeoPackage
                do { geoPackage = try GeoPackage(path: request.source) } catch {
                    throw ExtractError(.registration, "cannot open \(request.source) to register the replica: \(error)")
                }
                let s = SourceGeodatabase(geoPackage)
                // Recorded first, so that a re-run can find the replica if this run stops
                // before the package is in place.
                try directory.recordPendingReplica(id: replicaID, source: request.source)
                do {
                    try s.registerReplica(ReplicaRegistration(
                        id: replicaID, name: output.lastPathComponent, generation: tally.generation ?? 0,
                        areaWKT: manifest.area.wkt, areaCRS: manifest.area.crs, layers: prepared.plans.map(\.name),
                        optionsJSON: try registrationOptions(request)))
                } catch {
                    throw ExtractError(.registration, "cannot register the replica at \(request.source): \(error)")
                }
                source = s
                registered = (s, replicaID)
                try reach(.registered)
            }
            try directory.commit()
            registered = nil
            if let replicaID, let source {
                try reach(.renamed)
                do { try source.activateReplica(id: replicaID) } catch {
                    result.warnings.append("the package is complete but replica \(replicaID) stays pending at the source: \(error)")
                }
            }
            return result
        } catch let stop as CheckpointStop {
            throw stop.underlying
        } catch let error as ExtractError where error.kind == .cancelled {
            throw ExtractError(.cancelled, "cancelled; the unfinished package is kept in \(directory.stagingURL.path) "
                + "and a re-run of the same command resumes it")
        } catch let error as ExtractError where error.kind == .incomplete {
            // Kept, as the message says: the re-run fetches only the tiles still missing.
            throw error
        } catch {
            directory.discard()
            // Its package will not exist: a pending replica would only mislead.
            if let registered { try? registered.source.unregisterReplica(id: registered.id, by: "pkgbuild create (the build failed)") }
            if let e = error as? ExtractError { throw e }
            throw ExtractError(.failure, "cannot build \(output.path): \(error)")
        }
    }

    /// Before the source is read: its change-log triggers must watch every column the package
    /// will hold (a column added since `source enable` was not), or office edits of it would
    /// never reach the package.
    private static func refreshSourceTriggers(_ path: String) throws {
        do {
            let source = SourceGeodatabase(try GeoPackage(path: path))
            if try source.isEnabled() { try source.refreshTriggers() }
        } catch {
            throw ExtractError(.registration, "cannot bring the change-log triggers of \(path) up to date: \(error)")
        }
    }

    /// Unregisters the replica an interrupted run registered, when it is still pending (its
    /// package never reached its final name, and the work it left is being redone or thrown
    /// away). Returns warnings: what was done, or why the replica stays pending.
    static func discardAbandoned(_ abandoned: PackageDirectory.PendingReplica) -> [String] {
        do {
            let source = SourceGeodatabase(try GeoPackage(path: abandoned.source, busyTimeout: 10))
            guard let replica = try source.replica(id: abandoned.id), replica.state == .pending else { return [] }
            try source.unregisterReplica(id: abandoned.id, by: "pkgbuild create (an interrupted build, redone)")
            return ["unregistered replica \(abandoned.id) from \(abandoned.source): an interrupted run registered it "
                + "and never completed its package"]
        } catch {
            return ["replica \(abandoned.id) registered by an interrupted run stays pending at \(abandoned.source) "
                + "(\(error)); remove it with 'pkgbuild source unregister \(abandoned.source) \(abandoned.id)'"]
        }
    }

    // MARK: Internals

    /// Everything checked and resolved before anything is written.
    struct Prepared: Sendable {
        var request: ExtractRequest
        var area: AreaOfInterest
        /// The area in EPSG:4326 (x = longitude), for the manifest and the basemap.
        var lonLatArea: Geometry
        var plans: [LayerPlan]
        var areas: [String: Geometry]
        var relationships: [Relationship]
        var spatialReferenceSystems: [SpatialReferenceInfo]
        var basemap: Basemap?
        /// Found while preparing, for the result (a CRS that does not cover all the area).
        var warnings: [String] = []
    }

    static func prepare(_ request: ExtractRequest) throws -> Prepared {
        let fm = FileManager.default
        guard fm.fileExists(atPath: request.source) else {
            throw ExtractError(.source, "source \(request.source) does not exist")
        }
        if !request.output.isEmpty {
            try PackageDirectory.checkOutput(URL(fileURLWithPath: request.output).standardizedFileURL, force: request.force,
                                             inputs: request.inputs)
        }
        let connection: Connection
        let schema: GeoPackageSchema
        do {
            connection = try Connection(path: request.source, mode: .readOnly)
            schema = try GeoPackageSchema.read(from: connection)
        } catch let error as GeodatabaseError {
            throw ExtractError(.source, "source \(request.source): \(error.message)")
        } catch let error as SQLiteError where error.isFileProblem {
            throw ExtractError(.source, "source \(request.source) is not a GeoPackage: \(error.message)")
        } catch let error as SQLiteError where error.isReadOnly {
            // A GeoPackage this user cannot read without write access (see Connection's read-only open).
            throw ExtractError(.source, "source \(request.source): \(error.message)")
        } catch {
            throw ExtractError(.source, "source \(request.source) is not a GeoPackage: \(error)")
        }
        let context = try GEOSContext()
        let proj = try PROJContext()
        func crs(_ definition: String, option: String) throws -> CoordinateReferenceSystem {
            do { return try CoordinateReferenceSystem(definition, context: proj) } catch {
                throw ExtractError(.crs, "\(option) \(definition): unknown CRS (\(error))")
            }
        }
        _ = try crs(request.areaCRS ?? "EPSG:4326", option: "--area-crs")
        let area: AreaOfInterest
        do { area = try AreaOfInterest(parsing: request.area, crs: request.areaCRS ?? "EPSG:4326", context: context) } catch let error as GeometryError {
            throw ExtractError(.area, "--\(error.message)")
        }
        func transformed(into target: CoordinateReferenceSystem) throws -> Geometry {
            do { return try area.geometry(in: target, proj: proj, geos: context) } catch let error as GeometryError {
                throw ExtractError(.crs, "cannot transform the area from \(area.crs) to \(target.identity): \(error.message)")
            }
        }
        let lonLatArea = try transformed(into: try crs("EPSG:4326", option: "EPSG:4326"))
        let packageCRS = try request.crs.map { try crs($0, option: "--crs") }
        var packageSRS: SpatialReferenceInfo?
        var warnings = area.repairWarning.map { ["--\($0)"] } ?? []
        if let packageCRS {
            warnings += try checkAreaOfUse(lonLatArea, of: packageCRS, option: "--crs \(packageCRS.definition)",
                                           areaText: request.area, geos: context)
            let code = packageCRS.epsgCode
            let definition: String
            do { definition = try packageCRS.wkt() } catch {
                throw ExtractError(.crs, "--crs \(packageCRS.definition): no WKT for it (\(error))")
            }
            packageSRS = SpatialReferenceInfo(
                srsID: Int64(code ?? 100_000), name: packageCRS.name ?? packageCRS.definition,
                organization: code == nil ? "NONE" : "EPSG", organizationCoordsysID: Int64(code ?? 100_000),
                definition: definition, description: nil)
        }
        if request.register, try !SourceGeodatabase(connection: connection).isEnabled() {
            throw ExtractError(.registration, "source \(request.source) is not sync-enabled, so the package cannot be "
                + "registered as a replica; run 'pkgbuild source enable \(request.source)' or pass --no-register")
        }
        if request.register && !fm.isWritableFile(atPath: request.source) {
            throw ExtractError(.registration, "source \(request.source) is read-only, so the package cannot be "
                + "registered as a replica; pass --no-register to build an unregistered package")
        }

        // Layers: the named ones, or every feature and attribute table (mapping tables of
        // relationships travel with their relationship, not as layers).
        let mappingTables = Set(schema.relationships.compactMap { $0.mappingTable?.lowercased() })
        let candidates = schema.layers.filter {
            ($0.kind == .features || $0.kind == .attributes) && !mappingTables.contains($0.name.lowercased())
        }
        var chosen: [LayerInfo] = []
        if request.layers.isEmpty {
            chosen = candidates
        } else {
            for name in request.layers {
                guard let layer = candidates.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                    throw ExtractError(.layer, "--layer \(name): no feature or attribute table of that name in \(request.source)"
                        + " (there are: \(candidates.map(\.name).joined(separator: ", ")))")
                }
                if !chosen.contains(where: { $0.name == layer.name }) { chosen.append(layer) }
            }
        }
        for name in request.schemaOnly + request.filters.map(\.layer)
        where !chosen.contains(where: { $0.name.lowercased() == name.lowercased() }) {
            throw ExtractError(.layer, "layer \(name) is not among the layers extracted from \(request.source)")
        }
        let chosenNames = Set(chosen.map { $0.name.lowercased() })
        let relationships = schema.relationships.filter {
            chosenNames.contains($0.originTable.lowercased()) && chosenNames.contains($0.destinationTable.lowercased())
        }

        var plans: [LayerPlan] = []
        var areas: [String: Geometry] = [:]
        var areaByCRS: [String: Geometry] = [:]
        var srsRows: [Int64: SpatialReferenceInfo] = [:]
        var layerCRSDefinitions: [String: String] = [:]
        for layer in chosen {
            guard let primaryKey = layer.primaryKey else {
                throw ExtractError(.layer, "layer \(layer.name) of \(request.source) has no integer primary key")
            }
            guard var createSQL = try connection.scalar(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(layer.name)])?.stringValue else {
                throw ExtractError(.layer, "layer \(layer.name) is registered in gpkg_contents but has no table")
            }
            let filter = try request.filters.first { $0.layer.lowercased() == layer.name.lowercased() }.map { try $0.parsed(columns: layer.fields.map(\.name)) }
            let schemaOnly = request.schemaOnly.contains { $0.lowercased() == layer.name.lowercased() }
            let related = relationships.contains {
                $0.originTable.lowercased() == layer.name.lowercased() || $0.destinationTable.lowercased() == layer.name.lowercased()
            }
            var geometry: GeometryColumnInfo?
            var sourceCRS: String?
            if let g = layer.geometryColumn {
                var typeName = g.geometryTypeName.uppercased()
                if request.clip, typeName == "POLYGON" || typeName == "LINESTRING" {
                    // Clipping may cut one part into several: the column is Multi, in its SQL too.
                    typeName = "MULTI" + typeName
                    guard let retyped = CreateTableSQL.retyping(column: g.name, to: typeName, in: createSQL) else {
                        throw ExtractError(.layer, "layer \(layer.name): cannot find the type of geometry column \(g.name) in its CREATE TABLE statement to make it \(typeName) for --clip")
                    }
                    createSQL = retyped
                }
                geometry = .init(name: g.name, geometryTypeName: typeName, srsID: g.srsID, z: g.z, m: g.m)
                if let srs = schema.spatialReferenceSystem(id: g.srsID) {
                    srsRows[srs.srsID] = srs
                    sourceCRS = srs.organization.uppercased() == "EPSG" ? "EPSG:\(srs.organizationCoordsysID)" : "srs_id:\(srs.srsID)"
                }
                let definition = schema.spatialReferenceSystem(id: g.srsID)?.projDefinition ?? ""
                let layerCRS: CoordinateReferenceSystem
                do { layerCRS = try CoordinateReferenceSystem(definition, context: proj) } catch {
                    throw ExtractError(.crs, "layer \(layer.name): its CRS (srs_id \(g.srsID)) is unknown to PROJ (\(error))")
                }
                layerCRSDefinitions[layer.name] = definition
                // Layers usually share a CRS: the area (densified, transformed, made valid) once each.
                if let known = areaByCRS[definition] {
                    areas[layer.name] = known
                } else {
                    let area = try transformed(into: layerCRS)
                    areaByCRS[definition] = area
                    areas[layer.name] = area
                }
                if let packageSRS, packageSRS.srsID != g.srsID {
                    geometry?.srsID = packageSRS.srsID
                    srsRows[packageSRS.srsID] = packageSRS
                }
            }
            let mode: LayerPlan.Mode = schemaOnly ? .schemaOnly
                : layer.kind == .features ? .spatial
                : related ? (request.includeRelated ? .relatedOnly : .schemaOnly)
                : .whole
            let table = PackageTable(name: layer.name, dataType: layer.kind.dataType, identifier: layer.identifier,
                                     description: layer.description, createSQL: createSQL,
                                     columns: layer.fields.map(\.name), primaryKey: primaryKey, geometry: geometry)
            let reprojected = geometry != nil && geometry?.srsID != layer.geometryColumn?.srsID
            let cut = LayerCut(clipped: request.clip && mode == .spatial, filter: filter?.expression,
                               reprojectedFrom: reprojected ? sourceCRS : nil, schemaOnly: mode == .schemaOnly,
                               spatial: mode == .spatial, relatedOnly: mode == .relatedOnly)
            let packageCRSName = reprojected ? packageSRS.map { $0.organization == "EPSG" ? "EPSG:\($0.organizationCoordsysID)" : "srs_id:\($0.srsID)" } : sourceCRS
            plans.append(LayerPlan(info: layer, table: table, mode: mode, filter: filter, cut: cut,
                                   sourceCRS: sourceCRS, packageCRS: packageCRSName,
                                   sourceCRSDefinition: layerCRSDefinitions[layer.name],
                                   packageCRSDefinition: reprojected ? request.crs : nil))
        }
        if request.crs == nil {
            warnings += try layerAreaOfUseWarnings(plans, lonLatArea: lonLatArea, areaText: request.area, proj: proj, geos: context)
        }
        let basemap = try request.tiles.map { try Basemap.plan($0, area: area, geos: context, proj: proj, isCancelled: { false }) }
        return Prepared(request: request, area: area, lonLatArea: lonLatArea, plans: plans, areas: areas, relationships: relationships,
                        spatialReferenceSystems: srsRows.values.sorted { $0.srsID < $1.srsID }, basemap: basemap,
                        warnings: warnings)
    }

    static func read(_ prepared: Prepared, send: @escaping (ExtractMessage) -> Bool,
                     isCancelled: @escaping () -> Bool, snapshotRead: () throws -> Void = {}) throws -> ExtractTally {
        let reader = SourceReader(
            sourcePath: prepared.request.source, plans: prepared.plans, areas: prepared.areas,
            relationships: prepared.relationships, clip: prepared.request.clip,
            skipInvalid: prepared.request.skipInvalid, includeRelated: prepared.request.includeRelated,
            makeTransform: makeTransform, send: send, isCancelled: isCancelled)
        do {
            return try reader.run(generation: { connection in
                let source = SourceGeodatabase(connection: connection)
                let generation = try source.isEnabled() ? try source.generation() : nil
                try snapshotRead()
                return generation
            })
        } catch let stop as CheckpointStop {
            throw stop
        } catch let error as ExtractError {
            throw error
        } catch {
            throw ExtractError(.failure, "reading \(prepared.request.source): \(error)")
        }
    }

    /// The reprojection of a layer, made on the reading worker with its own PROJ context.
    static func makeTransform(_ plan: LayerPlan) throws -> ((Geometry) throws -> Geometry)? {
        guard let from = plan.sourceCRSDefinition, let to = plan.packageCRSDefinition else { return nil }
        let proj = try PROJContext()
        let transformer = try Transformer(from: from, to: to, context: proj)
        return { g in
            do { return try transformer.transform(g) } catch let error as GeometryError {
                throw ExtractError(.crs, "layer \(plan.name): cannot transform a geometry from \(from) to \(to): \(error.message)")
            }
        }
    }

    static func result(_ prepared: Prepared, tally: ExtractTally, replicaID: String?, package: String?) -> Result {
        var warnings = prepared.warnings + tally.warnings
        let layers = prepared.plans.map { plan in
            var cut = plan.cut
            cut.relatedRows = tally.related[plan.name] ?? 0
            return LayerResult(name: plan.name, dataType: plan.table.dataType, geometryType: plan.table.geometry?.geometryTypeName,
                               crs: plan.packageCRS, selected: tally.selected[plan.name] ?? 0,
                               related: tally.related[plan.name] ?? 0,
                               skippedInvalid: tally.skippedInvalid[plan.name] ?? 0, cut: cut)
        }
        for layer in layers where layer.skippedInvalid > 0 {
            warnings.append("layer \(layer.name): skipped \(layer.skippedInvalid) features whose geometry could not be read")
        }
        let spatial = layers.filter { $0.cut.spatial }
        if !spatial.isEmpty && spatial.allSatisfy({ $0.selected == 0 }) {
            warnings.append("the area \(prepared.area.text) holds no features of \(spatial.map(\.name).joined(separator: ", ")); "
                + "the package has no features")
        }
        return Result(layers: layers, generation: tally.generation, replicaID: replicaID, package: package,
                      warnings: warnings, tiles: nil)
    }

    /// The options a replica is registered with (JSON object), for sync to know how it was cut.
    static func registrationOptions(_ request: ExtractRequest) throws -> String {
        var options: [String: String] = ["clip": "\(request.clip)", "related": "\(request.includeRelated)"]
        if let crs = request.crs { options["crs"] = crs }
        for filter in request.filters { options["where:\(filter.layer)"] = filter.expression }
        if !request.schemaOnly.isEmpty { options["schema_only"] = request.schemaOnly.joined(separator: ",") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(options), as: UTF8.self)
    }

    static func makeManifest(_ prepared: Prepared, result: Result, directory: PackageDirectory,
                             toolVersion: String, created: String, tiles: PackageManifest.Tiles?) throws -> PackageManifest {
        let wkt = prepared.area.geometry.wkt
        let geojson = try ManifestJSON(parsing: prepared.lonLatArea.geoJSON())
        var files: [String: Int64] = [:]
        for name in [PackageDirectory.dataFileName, PackageDirectory.basemapFileName] {
            let url = directory.stagingURL.appendingPathComponent(name)
            if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64 { files[name] = size }
        }
        return PackageManifest(
            tool: .init(name: "pkgbuild", version: toolVersion),
            created: created,
            replicaID: result.replicaID ?? "",
            source: .init(kind: "geopackage",
                          location: URL(fileURLWithPath: prepared.request.source).standardizedFileURL.path,
                          generation: result.generation),
            area: .init(geojson: geojson, wkt: wkt, crs: prepared.area.crs),
            layers: result.layers.map {
                .init(name: $0.name, dataType: $0.dataType, geometryType: $0.geometryType, crs: $0.crs,
                      count: $0.count, cut: $0.cut)
            },
            tiles: tiles, files: files)
    }
}

/// The worker thread's result, read by the writer once the worker has finished.
final class WorkerOutcome: @unchecked Sendable {
    var tally: ExtractTally?
    var error: Error?
    let finished = DispatchSemaphore(value: 0)
}

