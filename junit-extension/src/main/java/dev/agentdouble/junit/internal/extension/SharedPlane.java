package dev.agentdouble.junit.internal.extension;

import dev.agentdouble.junit.internal.control.ControlPlane;
import dev.agentdouble.junit.internal.process.DaemonThreads;
import dev.agentdouble.junit.internal.process.FakeAgentRuntime;
import dev.agentdouble.junit.internal.process.Janitor;
import dev.agentdouble.junit.internal.process.WorkFolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What every fake of a JVM shares, kept in the root context's store: the control plane, the fake's
 * runtime, the work folder and its janitor.
 */
// CloseableResource, deprecated since JUnit 5.13, is what JUnit 5.10 to 5.12 close (the
// README's "JUnit 5.10 and newer"); 5.13 and later close it as an AutoCloseable
@SuppressWarnings("deprecation")
public record SharedPlane(ControlPlane plane, FakeAgentRuntime runtime, Path work, Janitor janitor)
    implements ExtensionContext.Store.CloseableResource, AutoCloseable {

  /**
   * Cleans the work folders of JVMs killed outright, then starts this JVM's: the control plane,
   * warmed by one request, while the fake's runtime is got on another thread.
   */
  public static SharedPlane start() {
    try {
      Path work = WorkFolder.create();
      // the fake's runtime (its class-data sharing archive, made by a child JVM when the cache
      // has none) is got while WireMock starts: the first test of a JVM waits for the longer
      CompletableFuture<FakeAgentRuntime> runtime =
          CompletableFuture.supplyAsync(
              () -> FakeAgentRuntime.create(work), DaemonThreads.each("agentdouble-runtime"));
      ControlPlane plane = ControlPlane.start();
      plane.warmUp(); // WireMock's first request, here rather than in the first test
      try {
        return new SharedPlane(plane, runtime.join(), work, new Janitor());
      } catch (CompletionException e) {
        plane.close();
        throw e.getCause() instanceof RuntimeException r ? r : e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a work folder for the fake agent", e);
    }
  }

  @Override
  public void close() {
    plane.close();
    runtime.close();
    janitor.close();
    WorkFolder.close(work); // stays when a failed test's folder is kept inside
  }
}
