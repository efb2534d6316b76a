package dev.agentdouble.junit.internal.extension;

import dev.agentdouble.junit.AgentDoubleExtension;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.Extension;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.MethodSelector;
import org.junit.platform.engine.discovery.NestedClassSelector;
import org.junit.platform.engine.discovery.NestedMethodSelector;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.engine.support.store.Namespace;
import org.junit.platform.engine.support.store.NamespacedHierarchicalStore;
import org.junit.platform.launcher.LauncherDiscoveryListener;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Starts the control plane (WireMock and the fake's runtime) as soon as the launcher knows a test
 * class of the extension will run, on a daemon thread, so that its second or so overlaps test
 * discovery, class loading and the tests before the first fake ({@link EarlyPlane}); registered in
 * {@code META-INF/services} as a launcher session listener.
 *
 * <p>When: as discovery starts, if the request selects such a class by name (what Maven Surefire,
 * Gradle and IDEs send: a class, method or nested-class selector); else as the test plan starts
 * executing, if the plan holds one (a package or classpath scan). A session that runs no such class
 * starts nothing. Starting it as the session opens would overlap more, but a session opens before
 * anyone knows what it will run, and every session of a JVM with this jar on its classpath (a
 * module whose other tests never use a fake) would pay WireMock's start for nothing. The
 * configuration parameter {@code agentdouble.earlyStart=false} turns it off.
 */
public final class EarlyStart implements LauncherSessionListener {
  /** The configuration parameter that turns the early start off. */
  public static final String ENABLED = "agentdouble.earlyStart";

  /**
   * Registers the {@link Trigger} on the session's launcher; nothing on a JUnit older than 5.13,
   * whose sessions have no store ({@link EarlyPlane#SESSION_STORES}): the {@code Trigger} class,
   * which names that store, is not even loaded there.
   */
  @Override
  public void launcherSessionOpened(LauncherSession session) {
    if (EarlyPlane.SESSION_STORES && launcherSessionStores()) {
      Trigger.register(session);
    }
  }

  private static boolean launcherSessionStores() {
    try {
      LauncherSession.class.getMethod("getStore");
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /** Starts the plane in the session's store, once, at the first sign of a class that needs it. */
  static final class Trigger implements LauncherDiscoveryListener, TestExecutionListener {
    private final NamespacedHierarchicalStore<Namespace> store;

    private Trigger(NamespacedHierarchicalStore<Namespace> store) {
      this.store = store;
    }

    static void register(LauncherSession session) {
      Trigger trigger = new Trigger(session.getStore());
      session.getLauncher().registerLauncherDiscoveryListeners(trigger);
      session.getLauncher().registerTestExecutionListeners(trigger);
    }

    @Override
    public void launcherDiscoveryStarted(LauncherDiscoveryRequest request) {
      if (!enabled(request.getConfigurationParameters())) {
        return;
      }
      for (DiscoverySelector selector : request.getSelectorsByType(DiscoverySelector.class)) {
        Class<?> test = selected(selector);
        if (test != null && usesTheExtension(test)) {
          start();
          return;
        }
      }
    }

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
      if (!enabled(plan.getConfigurationParameters())) {
        return;
      }
      Set<Class<?>> seen = new HashSet<>();
      for (TestIdentifier root : plan.getRoots()) {
        for (TestIdentifier id : plan.getDescendants(root)) {
          Class<?> test = id.getSource().map(EarlyStart::sourceClass).orElse(null);
          if (test != null && seen.add(test) && usesTheExtension(test)) {
            start();
            return;
          }
        }
      }
    }

    private void start() {
      store.getOrComputeIfAbsent(
          Namespace.create(EarlyPlane.NAMESPACE.getParts()),
          EarlyPlane.class,
          k -> new EarlyPlane(SharedPlane::start));
    }
  }

  private static boolean enabled(ConfigurationParameters parameters) {
    return parameters.getBoolean(ENABLED).orElse(true);
  }

  /** The class a selector names, loaded (not initialised); null for other selectors. */
  private static Class<?> selected(DiscoverySelector selector) {
    try {
      if (selector instanceof ClassSelector s) {
        return s.getJavaClass();
      } else if (selector instanceof MethodSelector s) {
        return s.getJavaClass();
      } else if (selector instanceof NestedClassSelector s) {
        return s.getNestedClass();
      } else if (selector instanceof NestedMethodSelector s) {
        return s.getNestedClass();
      }
    } catch (RuntimeException | LinkageError e) {
      // a class that cannot be loaded: discovery reports it
    }
    return null;
  }

  private static Class<?> sourceClass(TestSource source) {
    try {
      if (source instanceof ClassSource s) {
        return s.getJavaClass();
      } else if (source instanceof MethodSource s) {
        return s.getJavaClass();
      }
    } catch (RuntimeException | LinkageError e) {
      // not loadable here: the extension starts its plane itself if it runs
    }
    return null;
  }

  /**
   * Whether {@code test} (or a class it is nested in) declares the extension: {@code @ExtendWith}
   * on it, a superclass or an annotation of it (as {@code @AgentTape}'s), or a field of its type
   * ({@code @RegisterExtension}). A use this misses costs nothing but the early start.
   */
  static boolean usesTheExtension(Class<?> test) {
    for (Class<?> c = test; c != null; c = c.getEnclosingClass()) {
      for (ExtendWith with : AnnotationSupport.findRepeatableAnnotations(c, ExtendWith.class)) {
        for (Class<? extends Extension> extension : with.value()) {
          if (extension == AgentDoubleExtension.class) {
            return true;
          }
        }
      }
      boolean registered =
          !ReflectionSupport.findFields(
                  c,
                  f -> AgentDoubleExtension.class.isAssignableFrom(f.getType()),
                  HierarchyTraversalMode.TOP_DOWN)
              .isEmpty();
      if (registered) {
        return true;
      }
    }
    return false;
  }
}
