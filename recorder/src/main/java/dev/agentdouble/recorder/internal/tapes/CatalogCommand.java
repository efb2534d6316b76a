package dev.agentdouble.recorder.internal.tapes;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.cli.Args;
import dev.agentdouble.recorder.internal.cli.UserFile;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code agentdouble catalog}: the built-in tapes. Lists them (name, formats, description), prints
 * one ({@code --show NAME}) or writes one to a file ({@code --write NAME --out FILE}).
 */
public final class CatalogCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble catalog [--show NAME | --write NAME --out FILE]

      Lists the built-in tapes, one per line: the name, the output formats it is meant for, and
      what the run does, with the linter findings it gives on purpose in brackets. Replay one with
      %1$s=%2$sNAME (or `agentdouble replay %2$sNAME`); in Java,
      Catalog.tape("NAME") gives it to the JUnit extension.
        --show NAME              print the tape itself (NDJSON)
        --write NAME --out FILE  write the tape to FILE, to start a tape of your own from it
      """
          .formatted(FakeEnvironment.TAPE, FakeEnvironment.BUILTIN);

  public CatalogCommand() {}

  @Override
  public String name() {
    return "catalog";
  }

  @Override
  public String usage() {
    return "catalog [--show NAME | --write NAME --out FILE]";
  }

  @Override
  public String summary() {
    return "list the built-in tapes; print one, or write it to a file";
  }

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
    Args a = Args.parse(args, List.of("--show", "--write", "--out"), List.of());
    if (a.help()) {
      out.print(HELP);
      return ExitStatus.OK;
    }
    if (!a.positional().isEmpty()) {
      throw new UsageException(
          "catalog takes options only, not '"
              + a.positional().get(0)
              + "'; to print a tape, use --show NAME");
    }
    Optional<String> show = a.value("--show");
    Optional<String> write = a.value("--write");
    Optional<String> file = a.value("--out");
    if (show.isPresent() && write.isPresent()) {
      throw new UsageException("give --show NAME or --write NAME, not both");
    }
    if (write.isPresent() != file.isPresent()) {
      throw new UsageException(
          write.isPresent()
              ? "--write NAME needs --out FILE"
              : "--out FILE goes with --write NAME");
    }
    if (show.isPresent()) {
      out.writeBytes(tape(show.get()).toBytes());
      out.flush();
      return ExitStatus.OK;
    }
    if (write.isPresent()) {
      Tape tape = tape(write.get());
      UserFile.write(tape, file.get());
      err.println(
          "agentdouble: wrote "
              + file.get()
              + " (builtin:"
              + write.get()
              + ", "
              + tape.frames().size()
              + " frames)");
      return ExitStatus.OK;
    }
    list(out, err);
    return ExitStatus.OK;
  }

  private static void list(PrintStream out, PrintStream err) {
    List<Catalog.Entry> entries = Catalog.entries();
    int nameWidth = 0;
    int formatsWidth = 0;
    for (Catalog.Entry e : entries) {
      nameWidth = Math.max(nameWidth, e.name().length());
      formatsWidth = Math.max(formatsWidth, formats(e).length());
    }
    for (Catalog.Entry e : entries) {
      StringBuilder line = new StringBuilder();
      line.append(pad(e.name(), nameWidth))
          .append("  ")
          .append(pad(formats(e), formatsWidth))
          .append("  ")
          .append(e.description());
      if (!e.expectedFindings().isEmpty()) {
        line.append(" [").append(String.join(", ", e.expectedFindings())).append(']');
      }
      out.println(line);
    }
    err.println(
        "agentdouble: "
            + entries.size()
            + " built-in tapes; replay one with"
            + " "
            + FakeEnvironment.TAPE
            + "="
            + FakeEnvironment.BUILTIN
            + "NAME");
  }

  private static Tape tape(String name) {
    try {
      return Catalog.tape(name);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(e.getMessage());
    }
  }

  private static String formats(Catalog.Entry e) {
    return e.formats().stream().map(OutputFormat::cliName).collect(Collectors.joining(","));
  }

  private static String pad(String s, int width) {
    return s + " ".repeat(width - s.length());
  }
}
