enum HelpText {
    static let overview = """
        CameraRoll: a self-hosted camera and photo library.

        Usage: cameraroll [GLOBAL OPTIONS] COMMAND [OPTIONS]
               (global options go before or after the command: cameraroll list --data DIR)

        Commands:
          serve                Serve the web app and its API (default http://127.0.0.1:8080).
                               --host ADDRESS  --port N (0 picks a free port)
                               --lan          HTTPS on every address, port 8443, for phones and
                                              tablets: prints the URLs, a QR code and how to
                                              install its local authority (DATA/tls)
                               --cert FILE --key FILE  your own certificate (PEM) for HTTPS
                               --name NAME[,NAME]  host names it answers to besides its addresses,
                                              localhost and this computer's name (others are refused);
                                              its own HTTPS certificate covers them
                               --trusted-proxy ADDRESS  a load balancer in front (repeatable): the
                                              client is the one its X-Forwarded-For names
                               --stream-idle SECONDS  a recording streamed while it is shot whose
                                              page is gone becomes an asset this long after its
                                              last piece (default 30)
                               Any address but loopback is served over HTTPS.
                               SIGINT or SIGTERM stop it gracefully.
          pick                 Present a picker through a running server and print its result as JSON.
                               --server URL (default http://127.0.0.1:8080)
                               --user NAME    sign in as NAME (the password on standard input,
                                              or asked): the picker shows NAME's library, to a
                                              browser signed in as NAME
                               --source camera|library|saved  --media image,movie  --edit
                               --media image,live-photo  a Live Photo as one, with both its
                                              files (livePhoto: imageURL, movieURL)
                               --limit N      up to N items (printed as an array in the order
                                              picked); --ordered numbers the checkmarks
                               --filter JSON  only items it admits (PHPickerFilter: images,
                                              videos, livePhotos, screenshots, slomoVideos,
                                              combined with {"any": [...]}, {"all": [...]}, {"not": ...})
                               Exit status 1 if the user cancels.
          import PATH...       Import photos and videos (files or folders, recursively).
                               --json         print {"imported": [...], "rejected": [...]}
                               --camera-roll  also save them to the Camera Roll album
                               --user NAME    into NAME's library (default: the owner's)
                               Exit status 1 if any file was rejected.
          list                 List the library, newest capture first.
                               --user NAME    NAME's library (default: the owner's)
                               --source photoLibrary|savedPhotosAlbum  (default photoLibrary)
                               --media image,movie                     (default both)
                               --json
          export ID DEST       Write an original's exact bytes to DEST (a file or folder).
                               --force        replace DEST if it exists
          trash ID...          Move assets to the trash.
          restore ID...        Take assets out of the trash.
          delete ID...         Delete assets and their originals for good.
          gc                   Remove originals and derivatives nothing refers to.
          passwd               Set or change the owner's password, which anyone not on this computer
                               signs in with (asked twice; or one line on standard input). With
                               --database, the one every server sharing that database takes.
          users add NAME       Add a person, with a library of their own (the password is asked
                               as passwd asks). --admin: they may manage the others.
          users list           The people who sign in (--json). The owner is the first admin.
          users passwd NAME    Set or change NAME's password (asked as passwd asks).
          users quota NAME SIZE
                               How much NAME's library may hold (20GB, 500MB; none: no limit).
                               Uploads past it are refused; what is there stays.
          users remove NAME --to ADMIN
                               Remove NAME: their photos go to ADMIN's Recently Deleted, their
                               albums to ADMIN titled "(from NAME)"; their devices are signed out.
                               With --database, the users commands change what every server reads.
          apps add ORIGIN      Let a web site open the picker (CameraRoll.choose in /app/chooser.js).
                               --name NAME    what the picker calls it (default: its host)
                               --link-lifetime 1h  how long links to what it is given last
                                              (seconds, or 10m, 1h, 7d; default 1h)
          apps list            The sites allowed to use the picker (--json). With --database, the
                               apps commands change the list every server sharing it reads.
          apps remove ID|ORIGIN  Forget a site; the links it was given stop working.
                               Each person allows their own sites: --user NAME (default: the owner).
          migrate --to URL     Copy the data folder's library into PostgreSQL (URL) and, with
                               --to-storage s3://BUCKET, its originals into S3; --from URL
                               [--from-storage s3://BUCKET] copies one back. Each original is
                               checked against its hash; run it again to finish an interrupted copy.
          doctor               Check libvips, libheif, libexif, ffmpeg, SQLite and the data folder.
          help                 Show this text.

        Global options, before or after the command, each given once (after --, every word
        is the command's: cameraroll import -- --data is the file named --data):
          --data DIR           The data folder (default $XDG_DATA_HOME/cameraroll, else
                               ~/.local/share/cameraroll). It holds everything: the database
                               (library.sqlite), the originals (blobs), derivatives.
          --database postgresql://USER@HOST:PORT/DB
                               The library's rows in PostgreSQL instead.
          --storage s3://BUCKET
                               The originals in an S3 bucket (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
                               AWS_SECRET_ACCESS_KEY, AWS_REGION from the environment).
          --help               Show this text.
        With --database or --storage the data folder holds this machine's caches and work files
        only. Servers sharing a database share the key picked items' links are signed with,
        sign-in and the pickers in progress.
        CAMERAROLL_FFMPEG and CAMERAROLL_FFPROBE name other ffmpeg and ffprobe programs.
        """
}
