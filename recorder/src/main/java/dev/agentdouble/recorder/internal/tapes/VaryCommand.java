package dev.agentdouble.recorder.internal.tapes;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.cli.Args;
import dev.agentdouble.recorder.internal.cli.UserFile;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeWriter;
import dev.agentdouble.variants.Variants;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** {@code agentdouble vary}: a damaged variant of a tape, deterministic for a seed. */
public final class VaryCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble vary TAPE --variant NAME [--seed N] [--out FILE]
             agentdouble vary --list

      Derives a variant of TAPE (a file, or builtin:NAME for a built-in tape): the same run with
      realistic damage. Without --out the variant is
      written on stdout. The same seed always gives the same bytes (default seed 1).
        --variant NAME   one of the names --list prints
        --seed N         the seed for variants that pick places at random
        --out FILE       write the tape there (atomically)
        --list           list the variants
      """;

  public VaryCommand() {}

  @Override
  public String name() {
    return "vary";
  }

  /** The variants that damage what only the Cursor CLI writes, and why a Claude tape has none. */
  private static final Map<String, String> CURSOR_ONLY =
      Map.of(
          "partial-output",
          "it is the Cursor CLI's --stream-partial-output form; Claude Code's partial messages"
              + " are stream_event lines (--include-partial-messages), recorded as they come",
          "reorder-completions",
          "it reorders the Cursor CLI's tool_call completed events; Claude Code reports a tool's"
              + " result in a user event");

  @Override
  public String usage() {
    return "vary TAPE --variant NAME [--seed N] [--out FILE]";
  }

  @Override
  public String summary() {
    return "derive a damaged variant (re-chunked, cut, noisy, ...); --list";
  }

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws IOException {
    Args a = Args.parse(args, List.of("--variant", "--seed", "--out"), List.of("--list"));
    if (a.help()) {
      out.print(HELP);
      return ExitStatus.OK;
    }
    if (a.flag("--list")) {
      for (Variants.Variant v : Variants.all(1)) {
        out.printf("%-20s %s%n", v.name(), v.description());
      }
      return ExitStatus.OK;
    }
    if (a.positional().size() != 1) {
      throw new UsageException("vary takes one TAPE");
    }
    String name =
        a.value("--variant")
            .orElseThrow(
                () ->
                    new UsageException("vary needs --variant NAME (see agentdouble vary --list)"));
    long seed;
    try {
      seed = Long.parseLong(a.value("--seed").orElse("1"));
    } catch (NumberFormatException e) {
      throw new UsageException(
          "--seed must be a whole number, was '" + a.value("--seed").get() + "'");
    }
    Variants.Variant variant;
    try {
      variant = Variants.named(name, seed);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Tape tape = UserFile.tape(a.positional().get(0));
    if (tape.header().cli().filter("claude"::equals).isPresent() && CURSOR_ONLY.containsKey(name)) {
      throw new CommandFailure(
          a.positional().get(0)
              + ": "
              + name
              + " is not made for a claude tape: "
              + CURSOR_ONLY.get(name));
    }
    Tape varied = variant.apply(tape);
    if (a.value("--out").isPresent()) {
      Path target = Path.of(a.value("--out").get());
      varied.write(target);
      err.println("agentdouble: wrote " + target + " (" + name + ", seed " + seed + ")");
    } else {
      out.write(TapeWriter.toBytes(varied));
      out.flush();
    }
    return ExitStatus.OK;
  }
}
