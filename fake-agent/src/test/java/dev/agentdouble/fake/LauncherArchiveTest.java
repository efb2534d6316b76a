package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.agentdouble.files.PrivateFolder;
import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * The launcher's class-data sharing archive, beside the jar, is used only when it is a file of the
 * user's (or of root's, for an installation root shared) and made only in a folder of the user's:
 * the JVM maps an archive without checking its bytes. Here the launcher runs a {@code java} that
 * logs each command and makes a few bytes for an archive, in a distribution's layout; another user
 * is played by a file's owner, nobody, which takes root to set (those tests are skipped without).
 */
@Timeout(120)
class LauncherArchiveTest {
  private static final int OTHER = 65534;

  /**
   * The installation, in a folder of the system's temp folder: another user must reach it, and the
   * build's own temp folder (target/tmp) is as reachable as the checkout, which may lie in a folder
   * only its owner may enter (a home folder of mode 700, a {@code mktemp -d} folder). JUnit deletes
   * it after each test.
   */
  @TempDir(factory = ReachableByAll.class)
  Path dir;

  /** Makes each test's folder in {@code /tmp}, which every user may enter (FHS). */
  static final class ReachableByAll implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context)
        throws IOException {
      return Files.createTempDirectory(Path.of("/tmp"), "agentdouble-launcher-archive-");
    }
  }

  private Path lib;
  private Path jsa;
  private Path java;
  private Path log;

  @BeforeEach
  void install() throws IOException {
    Path home = dir.resolve("install");
    Path bin = Files.createDirectories(home.resolve("bin"));
    lib = Files.createDirectories(home.resolve("lib"));
    Files.copy(
        FakeProcess.launcher(), bin.resolve("cursor-agent"), StandardCopyOption.COPY_ATTRIBUTES);
    Files.writeString(lib.resolve("fake-agent.jar"), "a jar");
    jsa = lib.resolve("fake-agent.jsa");
    log = dir.resolve("java.log");
    java = Files.createDirectories(dir.resolve("jdk/bin")).resolve("java");
    Files.writeString(
        java,
        String.join(
            "\n",
            "#!/bin/sh",
            "printf '%s\\n' \"$*\" >> '" + log + "'",
            "case \"$*\" in *-Xshare:dump*)",
            "  for a in \"$@\"; do case $a in -XX:SharedArchiveFile=*) printf made > \"${a#*=}\" ;;"
                + " esac; done ;;",
            "esac",
            ""));
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /**
   * Runs the launcher, as another user when {@code as} says so (setpriv and its options); the java
   * commands it ran.
   */
  private List<String> launch(String... as) throws Exception {
    Files.writeString(log, "");
    Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-rw-rw-"));
    List<String> command = new ArrayList<>(List.of(as));
    command.addAll(List.of(lib.resolveSibling("bin/cursor-agent").toString(), "--version"));
    TestProcess.Result r =
        TestProcess.command(command)
            .mergeErrors()
            .noStdin()
            .withoutEnv("AGENTDOUBLE_")
            .env("JAVA_HOME", java.getParent().getParent().toString())
            .patience(Duration.ofSeconds(60))
            .run();
    assertThat(r.exit()).as(r.out()).isZero();
    return Files.readAllLines(log, StandardCharsets.UTF_8);
  }

  /** Whether the fake itself (the last command) ran with the archive. */
  private boolean ranWithTheArchive(List<String> commands) {
    String fake = commands.get(commands.size() - 1);
    assertThat(fake).endsWith("dev.agentdouble.fake.Main --version");
    String first = fake.substring(0, fake.indexOf(' '));
    String option = "-XX:SharedArchiveFile=";
    return first.startsWith(option)
        && Path.of(first.substring(option.length())).normalize().equals(jsa);
  }

  private static boolean made(List<String> commands) {
    return commands.stream().anyMatch(c -> c.contains("-Xshare:dump"));
  }

  @Test
  void theUsersOwnArchiveIsMadeOnceAndUsed() throws Exception {
    List<String> first = launch();
    List<String> again = launch();

    assertThat(made(first)).as("an archive made: %s", first).isTrue();
    assertThat(ranWithTheArchive(first)).as("the fake ran with the archive: %s", first).isTrue();
    assertThat(made(again)).as("an archive made: %s", again).isFalse();
    assertThat(ranWithTheArchive(again)).as("the fake ran with the archive: %s", again).isTrue();
  }

  @Test
  void anArchiveThatIsALinkIsNotUsedButMadeAgain() throws Exception {
    launch();
    Path elsewhere = Files.move(jsa, dir.resolve("elsewhere.jsa"));
    Files.createSymbolicLink(jsa, elsewhere);

    List<String> commands = launch();

    assertThat(made(commands)).as("an archive made: %s", commands).isTrue();
    assertThat(Files.isSymbolicLink(jsa)).isFalse();
    assertThat(jsa).isRegularFile();
    assertThat(ranWithTheArchive(commands))
        .as("the fake ran with the archive: %s", commands)
        .isTrue();
  }

  @Test
  void anArchiveOfAnotherUserIsNotUsedButMadeAgain() throws Exception {
    assumeThat(PrivateFolder.user()).as("chown takes root").hasValue(0);
    launch();
    Files.setAttribute(jsa, "unix:uid", OTHER);

    List<String> commands = launch();

    assertThat(made(commands)).as("an archive made: %s", commands).isTrue();
    assertThat(Files.getAttribute(jsa, "unix:uid")).isEqualTo(0);
    assertThat(ranWithTheArchive(commands))
        .as("the fake ran with the archive: %s", commands)
        .isTrue();
  }

  @Test
  void inAFolderOfAnotherUserTheirArchiveIsNotUsedAndNoneIsMade() throws Exception {
    assumeThat(PrivateFolder.user()).as("chown takes root").hasValue(0);
    launch();
    Files.setAttribute(jsa, "unix:uid", OTHER);
    Files.setAttribute(lib, "unix:uid", OTHER);

    List<String> commands = launch();

    assertThat(made(commands)).as("an archive made: %s", commands).isFalse();
    assertThat(ranWithTheArchive(commands))
        .as("the fake ran with the archive: %s", commands)
        .isFalse();
    assertThat(Files.getAttribute(jsa, "unix:uid")).isEqualTo(OTHER);
  }

  /** An installation root owns and has run once: the archive root made serves every user. */
  @Test
  void anotherUserUsesTheArchiveRootMadeButMakesNone() throws Exception {
    assumeThat(PrivateFolder.user()).as("chown takes root").hasValue(0);
    assumeThat(Path.of("/usr/bin/setpriv")).as("setpriv runs a command as another user").exists();
    launch();
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    String[] nobody = {
      "/usr/bin/setpriv", "--reuid=" + OTHER, "--regid=" + OTHER, "--clear-groups"
    };

    List<String> asNobody = launch(nobody);
    Files.setAttribute(jsa, "unix:uid", 1); // daemon's: neither root's nor nobody's
    List<String> notRoots = launch(nobody);

    assertThat(made(asNobody)).as("an archive made: %s", asNobody).isFalse();
    assertThat(ranWithTheArchive(asNobody))
        .as("the fake ran with the archive: %s", asNobody)
        .isTrue();
    assertThat(made(notRoots)).as("an archive made: %s", notRoots).isFalse();
    assertThat(ranWithTheArchive(notRoots))
        .as("the fake ran with the archive: %s", notRoots)
        .isFalse();
  }
}
