package dev.agentdouble.recorder.internal.shim;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.Launch;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.cli.Args;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;

/**
 * {@code agentdouble shim}: writes {@code BINDIR/cursor-agent} and {@code BINDIR/agent}, sh scripts
 * with their configuration baked in, for software that scrubs its children's environment or finds
 * the CLI on PATH. Either they record every invocation of the real CLI into a folder, or they run
 * the fake agent on given tapes.
 */
public final class ShimCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble shim --record-into DIR [--real PATH] --bin BINDIR
             agentdouble shim (--tape FILE | --tapes DIR) [--timing T] [--journal FILE] --bin BINDIR

      Writes BINDIR/cursor-agent and BINDIR/agent. Put BINDIR first on PATH (or point your software
      at BINDIR/cursor-agent):
        --record-into DIR   every invocation runs the real CLI, transparently, and is recorded into
                            DIR as <time>-<prompt>-<hash>.tape.ndjson
        --real PATH         the real CLI (default: cursor-agent, else agent, on PATH, outside BINDIR)
        --tape FILE         every invocation replays FILE through the fake agent
        --tapes DIR         invocations replay the first tape in DIR whose match rules hold
        --timing T          fast, recorded (default), scale:F or max-gap:MS
        --journal FILE      the fake appends one JSON line per invocation to FILE
      """;

  private final Optional<Path> home;

  /**
   * @param home the root of the installation whose launchers the shims run (empty when unknown: the
   *     command then fails saying how to run)
   */
  public ShimCommand(Optional<Path> home) {
    this.home = home;
  }

  @Override
  public String name() {
    return "shim";
  }

  @Override
  public String usage() {
    return "shim --record-into DIR | --tape FILE | --tapes DIR  --bin BINDIR";
  }

  @Override
  public String summary() {
    return "write cursor-agent/agent scripts that record or replay";
  }

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws IOException {
    Args a =
        Args.parse(
            args,
            List.of(
                "--record-into", "--real", "--bin", "--tape", "--tapes", "--timing", "--journal"),
            List.of());
    if (a.help()) {
      out.print(HELP);
      return ExitStatus.OK;
    }
    if (!a.positional().isEmpty()) {
      throw new UsageException("shim takes no positional arguments");
    }
    Path bin =
        Path.of(
            a.value("--bin")
                .orElseThrow(
                    () ->
                        new UsageException(
                            "shim needs --bin BINDIR, the folder to write the shims into")));
    int modes =
        (a.value("--record-into").isPresent() ? 1 : 0)
            + (a.value("--tape").isPresent() ? 1 : 0)
            + (a.value("--tapes").isPresent() ? 1 : 0);
    if (modes != 1) {
      throw new UsageException(
          "shim needs exactly one of --record-into DIR, --tape FILE, --tapes DIR");
    }
    Path root =
        home.orElseThrow(
            () ->
                new CommandFailure(
                    "shim needs the installation's home (run it through ./agentdouble)"));
    String script;
    if (a.value("--record-into").isPresent()) {
      Path into = Path.of(a.value("--record-into").get()).toAbsolutePath();
      Files.createDirectories(into);
      Path real = a.value("--real").map(Path::of).orElseGet(() -> findReal(bin));
      script = recordScript(root, into, real.toAbsolutePath());
    } else {
      StringBuilder env = new StringBuilder();
      if (a.value("--tape").isPresent()) {
        Path tape = Path.of(a.value("--tape").get()).toAbsolutePath();
        if (!Files.isRegularFile(tape)) {
          throw new CommandFailure(tape + ": no such tape");
        }
        env.append(export(FakeEnvironment.TAPE, tape.toString()));
      } else {
        Path tapes = Path.of(a.value("--tapes").get()).toAbsolutePath();
        if (!Files.isDirectory(tapes)) {
          throw new CommandFailure(tapes + ": no such folder");
        }
        env.append(export(FakeEnvironment.TAPES, tapes.toString()));
      }
      env.append(export(FakeEnvironment.TIMING, a.value("--timing").orElse("recorded")));
      if (a.value("--journal").isPresent()) {
        env.append(
            export(
                FakeEnvironment.JOURNAL,
                Path.of(a.value("--journal").get()).toAbsolutePath().toString()));
      }
      script =
          "#!/bin/sh\n# AgentDouble replay shim: the fake cursor-agent on baked-in tapes.\n"
              + "unset "
              + FakeEnvironment.URL
              + " "
              + FakeEnvironment.TAPE
              + " "
              + FakeEnvironment.TAPES
              + "\n"
              + env
              + "exec "
              + Launch.quote(Launch.fakeLauncher(root).toString())
              + " \"$@\"\n";
    }
    Files.createDirectories(bin);
    for (String name : Launch.SHIM_NAMES) {
      Path file = bin.resolve(name);
      Files.writeString(file, script, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    err.println(
        "agentdouble: wrote " + bin.resolve("cursor-agent") + " and " + bin.resolve("agent"));
    return ExitStatus.OK;
  }

  private static String recordScript(Path root, Path into, Path real) {
    return Launch.recordingShim(
        Path.of(System.getProperty("java.home"), "bin", "java"),
        Launch.recorderJar(root).toString(),
        Optional.of(root),
        into,
        real,
        Optional.empty());
  }

  /** The real CLI on PATH, never a shim in {@code bin} itself. */
  private static Path findReal(Path bin) {
    String path = System.getenv("PATH");
    Path self = bin.toAbsolutePath().normalize();
    for (String name : List.of("cursor-agent", "agent")) {
      for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
        if (dir.isEmpty() || Path.of(dir).toAbsolutePath().normalize().equals(self)) {
          continue;
        }
        Path candidate = Path.of(dir, name);
        if (Files.isExecutable(candidate)) {
          return candidate;
        }
      }
    }
    throw new CommandFailure(
        "no cursor-agent or agent on PATH to record; give it with --real PATH");
  }

  private static String export(String name, String value) {
    return name + "=" + Launch.quote(value) + "\nexport " + name + "\n";
  }
}
