// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "pkgbuild",
    products: [
        .executable(name: "pkgbuild", targets: ["pkgbuild"]),
        .library(name: "PkgBuildCLI", targets: ["PkgBuildCLI"]),
        .library(name: "Geometry", targets: ["Geometry"]),
        .library(name: "PkgBuildKit", targets: ["PkgBuildKit"]),
        // The source drivers an app registers with the field kit (`SourceRegistry.register`).
        .library(name: "GeoPackageSource", targets: ["GeoPackageSource"]),
        .library(name: "PostgreSQLSource", targets: ["PostgreSQLSource"]),
    ],
    targets: [
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(name: "CGEOS", path: "Sources/CGEOS", pkgConfig: "geos",
                       providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CPROJ", path: "Sources/CPROJ", pkgConfig: "proj",
                       providers: [.apt(["libproj-dev", "proj-data"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),

        // The shape of every module's error type: a kind and a message in words.
        .target(name: "Diagnostics"),

        // Wrappers: the only targets that import a C module.
        .target(name: "Geometry", dependencies: ["Diagnostics", "CGEOS", "CPROJ"]),
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "HTTP", dependencies: ["CCurl"]),
        .target(name: "PostgreSQL", dependencies: ["Diagnostics", "CLibPQ"]),

        // Domain layers.
        .target(name: "Geodatabase", dependencies: ["Diagnostics", "Geometry", "SQLite"]),
        .target(name: "TilePackage", dependencies: ["Diagnostics", "Geometry", "SQLite", "HTTP"]),
        // The offline package's own format: manifest, layout, the pkgbuild_* tables of data.gpkg.
        .target(name: "PackageFormat", dependencies: ["Diagnostics", "Geodatabase", "Geometry", "SQLite"]),
        // The seam between the tools and the databases they cut from and sync with: the source
        // protocols, their neutral values, the registry that picks a driver by address.
        .target(name: "SourceDrivers", dependencies: ["Diagnostics", "PackageFormat", "Geodatabase", "Geometry"]),
        // The GeoPackage driver: a GeoPackage as a source to cut packages from and sync with.
        .target(name: "GeoPackageSource",
                dependencies: ["Diagnostics", "SourceDrivers", "PackageFormat", "Geodatabase", "Geometry", "SQLite"]),
        // The PostgreSQL/PostGIS driver: a database schema as a source, through libpq.
        .target(name: "PostgreSQLSource",
                dependencies: ["Diagnostics", "SourceDrivers", "PackageFormat", "Geodatabase", "Geometry", "PostgreSQL"]),
        .target(name: "Extract", dependencies: ["Diagnostics", "SourceDrivers", "PackageFormat", "Geodatabase", "TilePackage", "Geometry", "SQLite", "HTTP"]),
        .target(name: "Sync", dependencies: ["Diagnostics", "SourceDrivers", "PackageFormat", "Geodatabase", "Geometry", "SQLite"]),
        // Reading a package back: what it holds, warnings, the SVG and GeoJSON drawings.
        .target(name: "Inspect", dependencies: ["PackageFormat", "Geodatabase", "TilePackage", "Geometry", "SQLite"]),
        // What field and desktop apps link: open a package, identify, related, edit, sync.
        .target(name: "PkgBuildKit", dependencies: ["Diagnostics", "Sync", "SourceDrivers", "PackageFormat", "Geodatabase", "Geometry", "SQLite"]),
        .target(name: "PkgBuildCLI",
                dependencies: ["PkgBuildKit", "Sync", "SourceDrivers", "GeoPackageSource", "PostgreSQLSource", "Extract", "Inspect", "PackageFormat", "Geodatabase", "TilePackage",
                               "Geometry", "SQLite", "HTTP"]),
        .executableTarget(name: "pkgbuild", dependencies: ["PkgBuildCLI"]),

        // Test plumbing only: testdata paths, temporary directories, running oracles.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry", "TestSupport"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
        .testTarget(name: "PostgreSQLTests", dependencies: ["PostgreSQL", "Geometry", "TestSupport"]),
        .testTarget(name: "GeodatabaseTests", dependencies: ["Geodatabase", "Geometry", "SQLite", "TestSupport"]),
        .testTarget(name: "TilePackageTests", dependencies: ["TilePackage", "Geometry", "SQLite", "HTTP", "TestSupport"]),
        .testTarget(name: "ExtractTests", dependencies: ["Extract", "SourceDrivers", "GeoPackageSource", "PackageFormat", "Geodatabase", "Geometry", "SQLite", "TestSupport"]),
        .testTarget(name: "PkgBuildKitTests",
                    dependencies: ["PkgBuildKit", "GeoPackageSource", "PkgBuildCLI", "Geodatabase", "Geometry", "SQLite", "TestSupport"]),
        .testTarget(name: "PkgBuildCLITests", dependencies: ["PkgBuildCLI", "Extract", "Inspect", "PackageFormat", "TestSupport"]),
        .testTarget(name: "PostgreSQLSourceTests",
                    dependencies: ["PostgreSQLSource", "PostgreSQL", "SourceDrivers", "PkgBuildCLI", "Sync", "Extract", "PackageFormat",
                                   "Geodatabase", "Geometry", "SQLite", "TestSupport"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "SourceDrivers", "GeoPackageSource", "PostgreSQLSource", "PkgBuildCLI", "Extract", "PackageFormat", "Geodatabase", "Geometry", "SQLite", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
