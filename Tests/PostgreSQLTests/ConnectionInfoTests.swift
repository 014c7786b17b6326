import Testing
import TestSupport
@testable import PostgreSQL

@Suite("ConnectionInfo: libpq URIs, key=value text and GDAL's PG: form")
struct ConnectionInfoTests {
    @Test("a URI gives its parts, and sslmode from the query")
    func uri() throws {
        let info = try ConnectionInfo("postgresql://field@db.example.org:5433/gis?sslmode=require")
        #expect(info.host == "db.example.org")
        #expect(info.port == "5433")
        #expect(info.user == "field")
        #expect(info.dbname == "gis")
        #expect(info.sslmode == "require")
        #expect(info.schema == "public")
        #expect(info.schemas.isEmpty)
    }

    @Test("key=value text, quoted values with spaces and escaped quotes")
    func keyValue() throws {
        let info = try ConnectionInfo(#"host=localhost dbname='my db' user='o\'brien' service=office"#)
        #expect(info.host == "localhost")
        #expect(info.dbname == "my db")
        #expect(info.user == "o'brien")
        #expect(info.service == "office")
        #expect(info.description == #"host=localhost dbname='my db' user='o\'brien' service=office schema=public"#)
    }

    @Test("GDAL's PG: form: the prefix is dropped and schemas= is kept apart from libpq")
    func gdalForm() throws {
        let info = try ConnectionInfo("PG:host=127.0.0.1 port=5432 dbname=gis user=field schemas=survey,base")
        #expect(info.schemas == ["survey", "base"])
        #expect(info.schema == "survey")
        #expect(info.parameters["schemas"] == nil)
        #expect(info.libpqConninfo.contains("schemas") == false)
        let active = try ConnectionInfo("pg:dbname=gis active_schema=office schemas=office,base")
        #expect(active.schemas == ["office", "base"])
    }

    @Test("schemas= in a URI's query is GDAL's too, and percent-decoded")
    func schemasInURI() throws {
        let info = try ConnectionInfo("postgresql://u@h/gis?schemas=field%20data&sslmode=disable")
        #expect(info.schema == "field data")
        #expect(info.sslmode == "disable")
        let only = try ConnectionInfo("PG:postgresql://u@h/gis?schemas=survey")
        #expect(only.schema == "survey")
    }

    @Test("a password, in either form, is never shown or stored", arguments: [
        "postgresql://field:hunter2secret@db/gis?schemas=survey",
        "PG:host=db dbname=gis user=field password=hunter2secret schemas=survey",
        "host=db dbname=gis user=field password='hunter2secret' sslpassword=hunter2secret schemas=survey",
    ])
    func passwordHidden(_ text: String) throws {
        let info = try ConnectionInfo(text)
        #expect(info.hasPassword)
        #expect(info.libpqConninfo.contains("hunter2secret"), "libpq still gets it")
        let shown = [info.description, info.debugDescription, "\(info)", String(reflecting: info),
                     "\(info.storedParameters)", "\(info.parameters)", "\(info.withoutSecrets.libpqConninfo)"]
        var dumped = ""
        dump(info, to: &dumped)
        for text in shown + [dumped] {
            #expect(!text.contains("hunter2secret"), "\(text)")
        }
        #expect(info.storedParameters == ["host": "db", "dbname": "gis", "user": "field", "schema": "survey"])
    }

    @Test("stored parameters give the same connection back, without the password")
    func roundTrip() throws {
        let info = try ConnectionInfo("postgresql://field:pw1234@db:6543/gis?sslmode=verify-full&schemas=survey&application_name=x")
        let again = try ConnectionInfo(parameters: info.storedParameters)
        #expect(again.storedParameters == info.storedParameters)
        #expect(again.schema == "survey")
        #expect(again.port == "6543")
        #expect(!again.hasPassword)
    }

    @Test("text libpq cannot read is refused in its words, a quoted password fragment left out")
    func malformed() throws {
        let error = postgreSQLError { _ = try ConnectionInfo("host=db password=abc secret-part") }
        #expect(error?.kind == .invalidConnectionInfo)
        #expect(error?.message.contains("secret-part") == false, "\(error?.message ?? "")")
        #expect(error?.message.contains("missing \"=\"") == true, "\(error?.message ?? "")")
        let unknown = postgreSQLError { _ = try ConnectionInfo("host=db tables=parks") }
        #expect(unknown?.message.contains("invalid connection option \"tables\"") == true, "\(unknown?.message ?? "")")
    }
}
