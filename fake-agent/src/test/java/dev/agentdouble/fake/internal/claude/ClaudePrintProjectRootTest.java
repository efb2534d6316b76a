package dev.agentdouble.fake.internal.claude;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The folder the real Claude Code 2.1.328 names a run's project folder after ({@code
 * memory_paths.auto}): the git repository's root, the main checkout's for a linked work tree
 * (docs/claude-2.1.328-runs.md, part j).
 */
class ClaudePrintProjectRootTest {
  @TempDir Path dir;

  @Test
  void aFolderInsideARepositoryIsNamedAfterTheRepositorysRoot() throws IOException {
    Path repo = Files.createDirectories(dir.resolve("repo"));
    Files.createDirectory(repo.resolve(".git"));
    Path sub = Files.createDirectories(repo.resolve("a/b"));

    assertThat(ClaudePrint.projectRoot(sub.toString())).isEqualTo(repo.toString());
    assertThat(ClaudePrint.projectRoot(repo.toString())).isEqualTo(repo.toString());
  }

  @Test
  void aLinkedWorkTreeIsNamedAfterTheMainCheckout() throws IOException {
    Path main = Files.createDirectories(dir.resolve("main"));
    Path link = Files.createDirectories(main.resolve(".git/worktrees/wt"));
    Files.writeString(link.resolve("commondir"), "../..\n", StandardCharsets.UTF_8);
    Path tree = Files.createDirectories(dir.resolve("wt"));
    Files.writeString(tree.resolve(".git"), "gitdir: " + link + "\n", StandardCharsets.UTF_8);
    Path sub = Files.createDirectories(tree.resolve("src"));

    assertThat(ClaudePrint.projectRoot(sub.toString())).isEqualTo(main.toString());
  }

  @Test
  void aGitFileWithoutACommonFolderStandsForItsOwnFolder() throws IOException {
    Path module = Files.createDirectories(dir.resolve("module"));
    Files.writeString(
        module.resolve(".git"), "gitdir: ../.git/modules/m\n", StandardCharsets.UTF_8);

    assertThat(ClaudePrint.projectRoot(module.toString())).isEqualTo(module.toString());
  }
}
