package dev.agentdouble.junit.internal.serve;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.control.ControlPlane;
import dev.agentdouble.junit.internal.control.Stubs;
import dev.agentdouble.junit.internal.match.InvocationConditions;
import dev.agentdouble.junit.internal.match.NoTapeReport;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.tape.Match;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeException;
import dev.agentdouble.tape.TapeReader;
import dev.agentdouble.tape.TapeWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code agentdouble serve}: the control plane of the JUnit extension on its own, for test runners
 * that are not on the JVM. A WireMock server on 127.0.0.1 with one stub per tape of a folder, in
 * file-name order (the first whose {@code match} holds answers, as with {@code AGENTDOUBLE_TAPES});
 * it prints {@code AGENTDOUBLE_URL=...} and {@code AGENTDOUBLE_SECRET=...} on stdout and runs until
 * the process is stopped. Requests without the secret are refused (HTTP 401), the admin API's too.
 * An invocation that no tape matches gets WireMock's near-miss report (HTTP 404), which the fake
 * agent prints before it exits 70.
 *
 * <p>{@link ServeCommand} makes it a command of {@code agentdouble}; the recorder module, which
 * holds the other commands, finds it on the classpath and does not depend on this one.
 */
final class Serve implements AutoCloseable {
  /** The URL path the fake agents are given; they POST to {@code PATH/invocations}. */
  public static final String PATH = "/agentdouble/serve";

  static final String HELP =
      """
      usage: agentdouble serve [--tapes DIR] [--port N] [--timing T] [--journal-limit N]

      Runs the JUnit extension's control plane on its own, for test runners that are not on the
      JVM: a WireMock server on 127.0.0.1 that answers each invocation of the fake agent. Prints
      two lines on stdout,
        %2$s=http://127.0.0.1:PORT/agentdouble/serve
        %3$s=SECRET
      to give the fake agent in its environment, as Cursor (bin/cursor-agent, bin/agent) or as
      Claude Code (bin/claude): one server answers both. Then it runs until it is stopped (SIGINT,
      SIGTERM) or the process that started it ends. SECRET is new each run; requests without it
      in the %5$s header are refused (HTTP 401).
      What answers an invocation, first to last: a stub added through the API whose match holds,
      the next tape enqueued through the API, the first tape in DIR (by file name) whose "match"
      holds, as %1$s=DIR would. An invocation nothing answers gets a near-miss report
      (HTTP 404); the fake prints it on stderr and exits 70.
        --tapes DIR   a folder of *.tape.ndjson files; read and checked once, at start
        --port N      the port to listen on (default: a free one)
        --timing T    rewrite the tapes' frame times: fast, recorded (default: as recorded),
                      scale:F or max-gap:MS; the fake's own %4$s applies on top
        --journal-limit N  how many of the last requests the journal keeps (default 1000), so
                      memory stays flat however long the suite
      The API, at the URL printed, with the same header (answers are JSON):
        POST URL/queue        a tape's NDJSON, or builtin:NAME: answers the next invocation
        POST URL/stubs        {"match":{...},"tapes":[...],"repeatLast":false}: answers those
                              the match lets through (prompt, argv, model, outputFormat,
                              stoppedBy, cwd, stdin, env: InvocationPattern's words)
        GET  URL/invocations  what the fakes were asked, oldest first, with the tape each got
        GET  URL/unused       the enqueued tapes no invocation has taken
        POST URL/reset        forgets the queue, the stubs and the invocations (DIR's tapes stay)
      """
          .formatted(
              FakeEnvironment.TAPES,
              FakeEnvironment.URL,
              FakeEnvironment.SECRET,
              FakeEnvironment.TIMING,
              ControlSecret.HEADER);

  private final ControlPlane plane;
  private final String url;
  private final List<String> tapes;
  private final CountDownLatch closed = new CountDownLatch(1);

  private Serve(ControlPlane plane, List<String> tapes) {
    this.plane = plane;
    this.url = plane.baseUrl() + PATH;
    this.tapes = List.copyOf(tapes);
  }

  /**
   * Runs {@code agentdouble serve ARGS}: returns at once with 0 (help), 1 (failed) or 2 (usage);
   * otherwise serves until the JVM is stopped.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    // watched from now on, while the server starts too
    if (!Lifeline.hold("serve", err)) {
      return Lifeline.PARENT_GONE;
    }
    Started started = start(args, out, err);
    if (started.serve() == null) {
      return started.status();
    }
    Serve serve = started.serve();
    Runtime.getRuntime().addShutdownHook(new Thread(serve::close, "agentdouble-serve-stop"));
    serve.awaitClose();
    return ExitStatus.OK;
  }

  /** The outcome of {@link #start}: a running server, or the exit status without one. */
  record Started(int status, Serve serve) {}

  /**
   * Parses {@code args}, reads the tapes, starts the server and prints {@code AGENTDOUBLE_URL=...}
   * on {@code out}; problems go to {@code err} as {@code agentdouble: ...}, without a server.
   */
  static Started start(String[] args, PrintStream out, PrintStream err) {
    Options options;
    try {
      options = Options.parse(args);
    } catch (UsageException e) {
      err.println("agentdouble: " + e.getMessage());
      err.println("Run 'agentdouble serve --help' for usage.");
      return new Started(ExitStatus.USAGE, null);
    }
    if (options.help()) {
      out.print(HELP);
      out.flush();
      return new Started(ExitStatus.OK, null);
    }
    List<Stub> stubs;
    try {
      stubs = options.tapes() == null ? List.of() : load(options.tapes(), options.timing());
    } catch (Failure | TapeException e) {
      err.println("agentdouble: " + e.getMessage());
      return new Started(ExitStatus.FAILED, null);
    }
    ServeApi api = new ServeApi(PATH, options.timing());
    ControlPlane plane;
    try {
      plane =
          ControlPlane.start(options.port(), OptionalInt.of(options.journalLimit()), api::handle);
      api.attach(plane);
    } catch (RuntimeException e) {
      err.println(
          "agentdouble: cannot listen on 127.0.0.1:" + options.port() + ": " + rootMessage(e));
      return new Started(ExitStatus.FAILED, null);
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < stubs.size(); i++) {
      Stub stub = stubs.get(i);
      plane.server().stubFor(mapping(stub, FOLDER_PRIORITY + i));
      names.add(stub.name());
    }
    Serve serve = new Serve(plane, names);
    List<NoTapeReport.Candidate> folder = new ArrayList<>();
    for (Stub stub : stubs) {
      folder.add(NoTapeReport.Candidate.of(stub.name(), stub.match()));
    }
    plane.onNoTape(
        PATH + "/invocations",
        body -> {
          List<NoTapeReport.Candidate> all = new ArrayList<>(api.stubMatches());
          all.addAll(folder);
          return NoTapeReport.render(body, all, api.queued());
        });
    // stdout only: a pipe to whoever started serve, never the note on stderr
    out.println(FakeEnvironment.URL + "=" + serve.url());
    out.println(ControlSecret.ENV + "=" + plane.secret());
    out.flush();
    err.println(
        "agentdouble: serving "
            + (options.tapes() == null
                ? "the tapes its API is given"
                : names.size()
                    + (names.size() == 1 ? " tape" : " tapes")
                    + " from "
                    + options.tapes())
            + " at "
            + serve.url()
            + " to the fake's cursor-agent and claude; stop with Ctrl-C or SIGTERM");
    err.flush();
    return new Started(ExitStatus.OK, serve);
  }

  /**
   * {@code AGENTDOUBLE_URL} for the fake agents: {@code http://127.0.0.1:PORT/agentdouble/serve}.
   */
  public String url() {
    return url;
  }

  /** The port listened on. */
  public int port() {
    return plane.server().port();
  }

  /** The tapes served, by file name, in priority order. */
  public List<String> tapes() {
    return tapes;
  }

  /** The WireMock server (its request journal holds the invocations). */
  public ControlPlane plane() {
    return plane;
  }

  /** Waits until {@link #close()} (a shutdown hook calls it on SIGINT and SIGTERM). */
  public void awaitClose() {
    try {
      closed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    try {
      plane.close();
    } finally {
      closed.countDown();
    }
  }

  // ---- the tapes ------------------------------------------------------------------------------

  /** One tape: its file name, its match rules, the bytes to answer with. */
  record Stub(String name, Match match, byte[] body) {}

  /** Reads every {@code *.tape.ndjson} of {@code dir}, in file-name order, and checks each. */
  static List<Stub> load(String dirName, Timing timing) {
    Path dir;
    try {
      dir = Path.of(dirName);
    } catch (InvalidPathException e) {
      throw new Failure(dirName + ": not a valid path (" + e.getReason() + ")");
    }
    if (!Files.exists(dir)) {
      throw new Failure(dirName + ": no such folder");
    }
    if (!Files.isDirectory(dir)) {
      throw new Failure(dirName + ": not a folder; --tapes names a folder of *.tape.ndjson files");
    }
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path file : entries) {
        if (file.getFileName().toString().endsWith(".tape.ndjson")) {
          files.add(file);
        }
      }
    } catch (IOException e) {
      throw new Failure(dirName + ": cannot list the folder: " + reason(e));
    }
    // the order of AGENTDOUBLE_TAPES: Path order, i.e. by file name within one folder
    Collections.sort(files);
    if (files.isEmpty()) {
      throw new Failure(dirName + ": no *.tape.ndjson files in the folder");
    }
    List<Stub> stubs = new ArrayList<>();
    for (Path file : files) {
      String source = file.toString();
      // opening a FIFO would wait for a writer, a device would never end: only files are read,
      // as the fake reads AGENTDOUBLE_TAPES
      if (!Files.isRegularFile(file)) {
        throw new Failure(
            source
                + ": not a regular file (a folder, a FIFO or a device); a tapes folder holds tape"
                + " files: move it away, or rename it to end in something else than .tape.ndjson");
      }
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(file);
      } catch (IOException e) {
        throw new Failure(source + ": cannot read: " + reason(e));
      }
      Tape tape;
      try {
        tape = TapeReader.read(source, new ByteArrayInputStream(bytes));
      } catch (IOException e) {
        throw new IllegalStateException("reading from memory failed", e);
      }
      if (!(timing instanceof Timing.Recorded)) {
        bytes = TapeWriter.toBytes(ServeApi.retime(tape, timing));
      }
      stubs.add(
          new Stub(file.getFileName().toString(), tape.header().match().orElse(Match.ANY), bytes));
    }
    return stubs;
  }

  /**
   * The stub of one tape: a POST to {@code PATH/invocations} whose body (the fake's invocation
   * JSON) meets the tape's match rules; {@code priority} 1 is tried first.
   */
  static MappingBuilder mapping(Stub stub, int priority) {
    MappingBuilder mapping =
        post(urlEqualTo(PATH + "/invocations")).atPriority(priority).withName(stub.name());
    return conditions(mapping, stub.match())
        .willReturn(
            aResponse()
                .withStatus(200)
                .withHeader("Content-Type", "application/x-ndjson")
                .withHeader(ControlSecret.TAPE_HEADER, stub.name())
                .withBody(stub.body()));
  }

  /**
   * The folder's tapes come after what the API adds (its stubs, then its queue: {@link Stubs}'
   * priorities are lower numbers).
   */
  static final int FOLDER_PRIORITY = 20;

  /** {@code mapping} with a condition on the invocation JSON for each of {@code match}'s. */
  static MappingBuilder conditions(MappingBuilder mapping, Match match) {
    return InvocationConditions.of(match).toRequestMapping(mapping);
  }

  // ---- the command line -----------------------------------------------------------------------

  /** How many requests the journal keeps by default: plenty to look into, bounded. */
  static final int JOURNAL_LIMIT = 1000;

  static final int MAX_JOURNAL_LIMIT = 1_000_000;

  record Options(boolean help, String tapes, int port, Timing timing, int journalLimit) {
    static Options parse(String[] args) {
      CommandLine line =
          CommandLine.parse(
              List.of(args),
              Set.of("--tapes", "--port", "--timing", "--journal-limit"),
              "the folder of tapes is given with --tapes DIR");
      boolean help = line.help();
      String tapes = line.get("--tapes");
      String port = line.get("--port");
      String timing = line.get("--timing");
      String journalLimit = line.get("--journal-limit");
      if (help) {
        return new Options(true, null, 0, Timing.RECORDED, JOURNAL_LIMIT);
      }
      if (tapes != null && tapes.isEmpty()) {
        throw new UsageException("--tapes needs a folder of *.tape.ndjson files");
      }
      return new Options(
          false,
          tapes,
          port == null ? 0 : port(port),
          timing == null ? Timing.RECORDED : timing(timing),
          journalLimit == null ? JOURNAL_LIMIT : journalLimit(journalLimit));
    }

    private static int journalLimit(String value) {
      try {
        int limit = Integer.parseInt(value);
        if (limit >= 1 && limit <= MAX_JOURNAL_LIMIT) {
          return limit;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new UsageException(
          "--journal-limit must be a number from 1 to "
              + MAX_JOURNAL_LIMIT
              + ", was '"
              + value
              + "'");
    }

    static int port(String value) {
      try {
        int port = Integer.parseInt(value);
        if (port >= 0 && port <= 65535) {
          return port;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new UsageException(
          "--port must be a number from 0 to 65535 (0: a free port), was '" + value + "'");
    }

    /** The policies of the fake's {@code AGENTDOUBLE_TIMING}, checked the same way. */
    static Timing timing(String spec) {
      if (Timing.problem(spec).isEmpty()) {
        return Timing.parse(spec);
      }
      throw new UsageException(Timing.optionProblem("--timing", spec));
    }
  }

  /** A problem with the tapes (exit 1), said as {@code subject: problem}. */
  static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message);
    }
  }

  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or folder";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    String message = e.getMessage();
    if (e instanceof FileSystemException fse && fse.getReason() != null) {
      message = fse.getReason();
    }
    return message == null ? e.getClass().getSimpleName() : message.toLowerCase(Locale.ROOT);
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String message = t.getMessage();
    return message == null ? t.getClass().getSimpleName() : message;
  }
}
