package dev.agentdouble.recorder.internal.record;

import dev.agentdouble.files.AtomicFile;
import dev.agentdouble.recorder.internal.normalise.CliKeys;
import dev.agentdouble.recorder.internal.normalise.Rebase;
import dev.agentdouble.recorder.internal.scan.Bytes;
import dev.agentdouble.recorder.internal.scan.Piece;
import dev.agentdouble.recorder.internal.secrets.SecretFormats;
import dev.agentdouble.recorder.internal.secrets.SecretScan;
import dev.agentdouble.recorder.internal.secrets.Secrets;
import dev.agentdouble.recorder.internal.secrets.SplitSecrets;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.TapeWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A captured run made ready to keep: normalised (unless raw), then redacted (always, last, so no
 * secret survives in the vars either), and written. Its frames go to a {@link Spool} as they are
 * made, and are scanned on the way for secrets of known shapes; {@link #write} then goes through
 * the spool to normalise them with the keys of the CLI the header names, as {@code Normaliser} does
 * (a pass to scan, one for the plan's check), and once more to write the tape (twice with user
 * patterns: what they match anywhere is replaced everywhere). So memory holds one frame at a time,
 * whatever the length of the run.
 */
final class Recording implements Piece.Sink, AutoCloseable {
  /** What the summary line tells, and where the tape went. */
  record Summary(int events, int toolCalls, int redactions, Path tape) {}

  private static final int JSON = 0;
  private static final int OUT = 1;
  private static final int ERR = 2;
  private static final int IN = 3;

  private final Spool spool;
  private final Map<String, String> env;
  private final List<String> command;
  private final List<Pattern> patterns;

  /** What is known of the run to normalise it; empty when raw. */
  private final Optional<Rebase.Known> normalisation;

  /** Secrets known by their shape, found in the command line and the run's output. */
  private final SecretFormats formats = new SecretFormats();

  /**
   * @param spool where the frames wait, until {@link #write}
   * @param cwd the folder the command ran in ({@code --workspace} when it named one)
   * @param epochMs the wall-clock time at which the command started
   */
  Recording(
      Spool spool,
      Map<String, String> env,
      List<String> command,
      List<Pattern> patterns,
      boolean raw,
      String cwd,
      long epochMs) {
    this.spool = spool;
    this.env = env;
    this.command = command;
    this.patterns = patterns;
    String home = env.get("HOME");
    Rebase.Known known =
        new Rebase.Known(
            // an ACP session names its own folder (session/new's cwd); the scan finds it
            RecordedCommandLine.acp(command)
                ? Optional.empty()
                : Optional.of(RecordedCommandLine.workspace(command).orElse(cwd)),
            Optional.ofNullable(home).filter(h -> !h.isEmpty() && !h.equals("/")),
            Optional.empty(),
            OptionalLong.of(epochMs));
    this.normalisation = raw ? Optional.empty() : Optional.of(known);
    command.forEach(formats::scan);
  }

  /** The next frame of the run. */
  @Override
  public void accept(Piece piece) throws IOException {
    int tag =
        switch (piece.kind()) {
          case JSON -> JSON;
          case OUT -> OUT;
          case ERR -> ERR;
          case IN -> IN;
          case OTHER -> throw new IllegalArgumentException("only output is spooled: " + piece);
        };
    byte[] bytes = piece.bytes();
    spool.append(tag, piece.t(), bytes, 0, bytes.length);
    formats.scan(bytes);
  }

  /** The frames spooled, in order. */
  private void forEach(Piece.Sink sink) throws IOException {
    spool.forEach(
        (tag, t, bytes) ->
            sink.accept(
                switch (tag) {
                  case JSON -> Piece.json(t, bytes);
                  case OUT -> Piece.out(t, bytes);
                  case IN -> Piece.in(t, bytes);
                  default -> Piece.err(t, bytes);
                }));
  }

  /**
   * Writes the tape to {@code target}, atomically: {@code header} as captured, the frames, then
   * {@code ending}.
   */
  Summary write(Header header, Frame ending, Path target) throws IOException {
    return write(header, ending, clean -> target);
  }

  /**
   * As {@link #write(Header, Frame, Path)}, to the file {@code target} names after the header it is
   * given: the header as written, redacted, so a name made from it holds no secret.
   */
  Summary write(Header header, Frame ending, Function<Header, Path> target) throws IOException {
    // the header's cli names the keys, as for Normaliser: a pass of its own over the spool
    CliKeys keys = CliKeys.of(header.cli());
    Optional<Rebase.Plan> plan = plan(header, keys);
    Header normalised = plan.map(Rebase.Plan::header).orElse(header);
    List<Secrets.Secret> secrets =
        SecretScan.knownSecrets(
            env,
            command.subList(1, command.size()),
            SecretScan.MIN_LENGTH,
            SecretScan::looksSecret);
    secrets.addAll(formats.found());
    SecretScan.Job job = new SecretScan.Job(secrets, patterns, normalised, SecretScan.MIN_LENGTH);
    if (job.needsScan()) {
      UnaryOperator<Piece> rebase = rebasing(plan);
      forEach(p -> job.scan(rebase.apply(p)));
    }
    Header clean = job.header(normalised);
    Path file = target.apply(clean);
    int[] events = {0};
    int[] tools = {0};
    AtomicFile.write(
        file,
        out -> {
          TapeWriter.writeHeader(clean, out);
          UnaryOperator<Piece> rebase = rebasing(plan);
          SplitSecrets cleaning =
              job.cleaning(
                  piece -> {
                    count(piece, keys, events, tools);
                    piece.writeTo(out);
                  });
          forEach(p -> cleaning.accept(rebase.apply(p)));
          cleaning.finish();
          TapeWriter.writeFrame(ending, out);
        });
    return new Summary(
        events[0],
        tools[0],
        job.counts().values().stream().mapToInt(Integer::intValue).sum(),
        file);
  }

  /** How the frames are normalised with {@code keys}, unless raw: from a pass over them. */
  private Optional<Rebase.Plan> plan(Header header, CliKeys keys) throws IOException {
    if (normalisation.isEmpty()) {
      return Optional.empty();
    }
    Rebase rebase = new Rebase(Rebase.Canon.STANDARD, normalisation.get(), keys);
    forEach(rebase::scan);
    return Optional.of(rebase.plan(header, this::forEach));
  }

  /** A pass of the plan over the frames, from the first; as they are in raw mode. */
  private static UnaryOperator<Piece> rebasing(Optional<Rebase.Plan> plan) {
    return plan.map(Rebase.Plan::rewriting).orElse(UnaryOperator.identity());
  }

  private static final byte[] TOOL_COMPLETED =
      "{\"type\":\"tool_call\",\"subtype\":\"completed\"".getBytes(StandardCharsets.UTF_8);

  private static final String TOOL_USE = "\"type\":\"tool_use\"";
  private static final String ASSISTANT = "\"type\":\"assistant\"";
  private static final String STREAM_EVENT = "\"type\":\"stream_event\"";

  private static void count(Piece piece, CliKeys keys, int[] events, int[] tools) {
    if (piece.kind() == Piece.Kind.JSON) {
      events[0]++;
      byte[] json = piece.bytes();
      if (keys == CliKeys.CLAUDE) {
        // one content block an assistant line; its key order varies between versions
        String line = Bytes.latin1(json);
        if (line.contains(TOOL_USE) && line.contains(ASSISTANT) && !line.contains(STREAM_EVENT)) {
          tools[0]++;
        }
      } else if (Bytes.startsWith(json, 0, json.length, TOOL_COMPLETED)) {
        // the CLI writes type and subtype first; enough for a summary line
        tools[0]++;
      }
    }
  }

  @Override
  public void close() throws IOException {
    spool.close();
  }
}
