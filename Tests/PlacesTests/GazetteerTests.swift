import Places
import Testing

@Suite struct GazetteerTests {
    /// The gazetteer the install step wrote, read once for the suite.
    static let world = Result { try Gazetteer.bundled() }

    private func world() throws -> Gazetteer { try Self.world.get() }

    private func table(_ places: String, countries: String = "DE\tGermany\tDeutschland\nFJ\tFiji\nNO\tNorway\nAQ\tAntarctica\n")
        throws(PlacesError) -> Gazetteer
    {
        try Gazetteer(places: Array(places.utf8), countries: Array(countries.utf8))
    }

    @Test func namesTheTownsOfPhotosTakenThere() throws {
        let world = try world()
        #expect(world.count > 150_000)
        // The Brandenburg Gate, the Colosseum, Shibuya crossing, Sydney's opera house, Times Square.
        let munich = world.place(latitude: 48.1374, longitude: 11.5755)
        #expect(munich == Place(name: "Munich", region: "Bavaria", country: "Germany", countryCode: "DE"))
        #expect(world.place(latitude: 41.8902, longitude: 12.4922)?.country == "Italy")
        #expect(world.place(latitude: 35.6595, longitude: 139.7005)?.countryCode == "JP")
        #expect(world.place(latitude: -33.8568, longitude: 151.2153)?.country == "Australia")
        #expect(world.place(latitude: 40.7580, longitude: -73.9855)?.region == "New York")
        #expect(munich?.description == "Munich, Bavaria, Germany")
    }

    @Test func namesNothingFarFromEveryTownOrOffTheEarth() throws {
        let world = try world()
        // The middle of the Pacific, 1,000 km from any island.
        #expect(world.place(latitude: -40, longitude: -130) == nil)
        for (latitude, longitude) in [(91.0, 0.0), (0, 180.5), (.nan, 0), (0, .infinity), (-90.1, 10)] {
            #expect(world.place(latitude: latitude, longitude: longitude) == nil)
        }
    }

    @Test func findsTheNearestAcrossCellsTheDateLineAndThePoles() throws {
        let gazetteer = try table(
            """
            -16.80000\t179.99000\tEast of the line\tNorthern\tFJ
            -16.80000\t-179.50000\tWest of the line\t\tFJ
            52.99000\t13.99000\tSouth-west\tBrandenburg\tDE
            53.01000\t14.01000\tNorth-east\tBrandenburg\tDE
            89.90000\t-170.00000\tNear the pole\t\tNO
            -89.99000\t0.00000\tSouth Pole\t\tAQ

            """)
        #expect(gazetteer.count == 6)
        // Each just across a cell's edge from its nearest place.
        #expect(gazetteer.place(latitude: 53.005, longitude: 14.005)?.name == "North-east")
        #expect(gazetteer.place(latitude: 52.995, longitude: 13.995)?.name == "South-west")
        // 1 km west of the date line: the place just east of it is 2 km away, the other 55 km.
        #expect(gazetteer.place(latitude: -16.8, longitude: -179.99)?.name == "East of the line")
        #expect(gazetteer.place(latitude: -16.8, longitude: -179.6)?.name == "West of the line")
        #expect(gazetteer.place(latitude: -16.8, longitude: 179.99)?.region == "Northern")
        #expect(gazetteer.place(latitude: -16.8, longitude: -179.5)?.region == nil)
        // Across the pole: 170° of longitude away, 20 km.
        #expect(gazetteer.place(latitude: 89.9, longitude: 10)?.country == "Norway")
        #expect(gazetteer.place(latitude: -90, longitude: 123)?.name == "South Pole")
        // 150 km from the nearest.
        #expect(gazetteer.place(latitude: 54.4, longitude: 14) == nil)
    }

    @Test func knowsTheCountriesByTheNamesPeopleType() throws {
        let world = try world()
        #expect(world.country(named: "Deutschland") == "Germany")
        #expect(world.country(named: "  ITALIA ") == "Italy")
        #expect(world.country(named: "españa") == "Spain")
        #expect(world.country(named: "Espana") == "Spain")
        #expect(world.country(named: "日本") == "Japan")
        #expect(world.country(named: "south korea") == "South Korea")
        #expect(world.country(named: "Berlin") == nil)
        #expect(try table("", countries: "DE\tGermany\tDeutschland\n").country(named: "germany") == "Germany")
        // Another language's name for one country is never taken from a country of that name.
        let shared = try table("", countries: "CG\tCongo\tKongo\tRepublic of the Congo\nCD\tRepublic of the Congo\tKongo\n")
        #expect(shared.country(named: "Republic of the Congo") == "Republic of the Congo")
        #expect(shared.country(named: "kongo") == "Congo")
    }

    @Test func searchReadsThePlaceWithAndWithoutItsAccents() {
        let place = Place(name: "São Paulo", region: "São Paulo", country: "Brazil", countryCode: "BR")
        #expect(place.words == "São Paulo, São Paulo, Brazil / sao paulo, sao paulo, brazil")
        #expect(Place(name: "Rome", region: "Lazio", country: "Italy", countryCode: "IT").words == "Rome, Lazio, Italy")
    }

    @Test(arguments: [
        ("1.0\t2.0\tName\t\tDE\textra\n", 1), ("1.0\t2.0\tName\t\n", 1), ("91.0\t2.0\tName\t\tDE\n", 1),
        ("1.0\t-180.5\tName\t\tDE\n", 1), ("1.0\t2.0\t\t\tDE\n", 1), ("1.0\t2.0\tName\t\tXX\n", 1),
        ("1.0\t2.0\tName\t\tde\n", 1), ("1..0\t2.0\tName\t\tDE\n", 1), ("-\t2.0\tName\t\tDE\n", 1),
        ("1e5\t2.0\tName\t\tDE\n", 1), ("1.0\t2.0\tName\t\tDE\n\n1.0\t2.0\tName\t\tDE\n", 2),
        (" 1.0\t2.0\tName\t\tDE\n", 1), ("1.0\t2.0\tName\t\tDE\n1.0\t2.0\n", 2),
    ])
    func refusesAPlaceLineNotAsTheInstallStepWritesIt(line: String, number: Int) {
        #expect(throws: PlacesError(.damaged, "The gazetteer's places are damaged (line \(number)): run make again to write them.")) {
            try table(line)
        }
    }

    @Test(arguments: ["DE\n", "DE\t\n", "DEU\tGermany\n", "DE\tGermany\nDE\tAgain\n", "\tGermany\n", "DE\tGermany\nAT\tgermany\n"])
    func refusesACountryLineNotAsTheInstallStepWritesIt(countries: String) {
        #expect(throws: PlacesError.self) { try table("", countries: countries) }
    }
}
