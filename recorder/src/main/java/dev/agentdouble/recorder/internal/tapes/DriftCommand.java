package dev.agentdouble.recorder.internal.tapes;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.drift.Drift;
import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.cli.Args;
import dev.agentdouble.recorder.internal.cli.UserFile;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractCollection;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code agentdouble drift OLD NEW}: the {@link Drift} report between two tapes or folders of tapes
 * (or, with {@code --stdout}, of captured stdout). Exit 0 without drift, 1 with, 2 when the
 * comparison cannot be made, as {@code diff} does.
 */
public final class DriftCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble drift [--stdout] OLD NEW

      Compares the shape of the CLI's events in OLD and NEW, never their values: for each event
      kind (type/subtype, and each tool of a tool_call, e.g. "tool_call/completed shellToolCall")
      the field paths (message.content[].text) and their JSON types. Prints the event kinds only
      NEW or only OLD has, then per event kind the fields added (+), removed (-) and retyped (~).
      A field counts as removed when no event of NEW has it.
        OLD, NEW    a tape, or a folder: every *.tape.ndjson in it and its subfolders
        --stdout    OLD and NEW are captured stdout instead (the NDJSON the CLI wrote), or
                    folders of *.ndjson captures
      Exit status: 0 no drift, 1 drift, 2 trouble (a wrong command line, a file that cannot be
      read, a folder without any).
      """;

  public DriftCommand() {}

  @Override
  public String name() {
    return "drift";
  }

  @Override
  public String usage() {
    return "drift [--stdout] OLD NEW";
  }

  @Override
  public String summary() {
    return "compare the events' fields and types in two tapes or folders";
  }

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
    Args a = Args.parse(args, List.of(), List.of("--stdout"));
    if (a.help()) {
      out.print(HELP);
      return ExitStatus.OK;
    }
    if (a.positional().size() != 2) {
      throw new UsageException(
          "drift takes OLD and NEW, was "
              + a.positional().size()
              + (a.positional().size() == 1 ? " path" : " paths"));
    }
    boolean stdout = a.flag("--stdout");
    try {
      Side old = Side.of(a.positional().get(0), stdout);
      Side now = Side.of(a.positional().get(1), stdout);
      Drift.Report report = Drift.compare(old.schema(), now.schema());
      out.print(report.render());
      String sides = " from " + old + " to " + now;
      err.println(
          "agentdouble: "
              + (report.isEmpty()
                  ? "no drift" + sides
                  : "drift" + sides + ": " + report.summary()));
      return report.isEmpty() ? ExitStatus.OK : ExitStatus.DIFFERENT;
    } catch (TapeException e) {
      err.println(
          "agentdouble: "
              + e.getMessage()
              + (e.line() == 1 ? "; for captured stdout, add --stdout" : ""));
      return ExitStatus.USAGE;
    } catch (CommandFailure e) {
      err.println("agentdouble: " + e.getMessage());
      return ExitStatus.USAGE;
    }
  }

  /** One side of the comparison: the files it names, read one at a time. */
  private record Side(String name, List<Path> files, boolean stdout) {

    static Side of(String name, boolean stdout) {
      Path path = Path.of(name);
      if (!Files.isDirectory(path)) {
        if (!Files.exists(path)) {
          throw new CommandFailure(name + ": no such file or folder");
        }
        return new Side(name, List.of(path), stdout);
      }
      String suffix = stdout ? ".ndjson" : ".tape.ndjson";
      List<Path> files;
      try (Stream<Path> walk = Files.walk(path)) {
        files =
            walk.filter(f -> f.getFileName().toString().endsWith(suffix))
                .filter(Files::isRegularFile)
                .sorted()
                .toList();
      } catch (IOException | UncheckedIOException e) {
        IOException cause = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
        throw new CommandFailure(
            name + ": cannot read the folder: " + CommandFailure.reason(cause, name));
      }
      if (files.isEmpty()) {
        throw new CommandFailure(
            name
                + ": no *"
                + suffix
                + " files in this folder"
                + (stdout ? "" : "; for captured stdout, add --stdout"));
      }
      return new Side(name, files, stdout);
    }

    /**
     * The schema of the side's files. They are read as {@link Drift#schema} iterates, so only one
     * is in memory at a time.
     */
    Drift.Schema schema() {
      return Drift.schema(
          new AbstractCollection<Tape>() {
            @Override
            public Iterator<Tape> iterator() {
              return files.stream().map(Side.this::read).iterator();
            }

            @Override
            public int size() {
              return files.size();
            }
          });
    }

    private Tape read(Path file) {
      if (!stdout) {
        return UserFile.tape(file.toString());
      }
      Capture capture = Capture.exited(UserFile.read(file.toString()), new byte[0], 0);
      return Importer.importRun(capture, ImportOptions.builder().raw(true).build());
    }

    @Override
    public String toString() {
      String what = stdout ? "capture" : "tape";
      return name + " (" + files.size() + " " + what + (files.size() == 1 ? "" : "s") + ")";
    }
  }
}
