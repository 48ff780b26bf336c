"use client";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import type { JobView } from "@/lib/server/jobs";

export const unfinished = (j: JobView) => j.state === "queued" || j.state === "running";

/**
 * The project's jobs of one kind, followed while any runs (a small JSON route polled every
 * 0.7 s); the page is refreshed when one finishes. `add` puts a job just started first;
 * `cancel` asks the server to stop one.
 *
 * The refresh is started from the poll's callback, never from inside a state update: an
 * updater runs while React renders, and an update scheduled from a render takes that
 * render's priority instead of being a transition. The refresh then held every later
 * update of the page (a choice in a select, a keystroke) until the server answered, and
 * React put controlled fields back to their last committed value meanwhile: a format
 * chosen during that wait was silently undone and the upload went with the old one. As a
 * transition, the refresh re-renders the page's server components in the background and
 * the client forms in it keep their state (same place in the tree, no key change).
 */
export function useProjectJobs(projectId: number, kind: string, initialJobs: JobView[]) {
  const router = useRouter();
  const [jobs, setJobs] = useState<JobView[]>(initialJobs);
  const running = jobs.some(unfinished);
  // Jobs seen queued or running: when one of them is next seen done, what the page shows changed.
  const followed = useRef<Set<number>>(new Set(initialJobs.filter(unfinished).map((j) => j.id)));

  /** Note what `seen` says of the jobs; refresh the page when one followed has finished. */
  const track = useCallback(
    (seen: JobView[]) => {
      let finished = false;
      for (const j of seen) {
        if (unfinished(j)) followed.current.add(j.id);
        else if (followed.current.delete(j.id) && j.state === "done") finished = true;
      }
      if (finished) router.refresh();
    },
    [router],
  );

  const poll = useCallback(async () => {
    const res = await fetch(`/api/projects/${projectId}/jobs?kind=${encodeURIComponent(kind)}`, { cache: "no-store" });
    if (!res.ok) return;
    const json = (await res.json()) as { jobs: JobView[] };
    setJobs(json.jobs);
    track(json.jobs);
  }, [projectId, kind, track]);

  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => void poll().catch(() => {}), 700);
    return () => clearInterval(t);
  }, [running, poll]);

  const add = useCallback(
    (job: JobView) => {
      setJobs((old) => [job, ...old.filter((j) => j.id !== job.id)]);
      // A job that is done by the time its upload is answered changed the page too.
      if (job.state === "done") router.refresh();
      else track([job]);
    },
    [router, track],
  );
  const cancel = useCallback(
    async (id: number) => {
      await fetch(`/api/projects/${projectId}/jobs/${id}/cancel`, { method: "POST" }).catch(() => {});
      await poll().catch(() => {});
    },
    [projectId, poll],
  );
  return { jobs, add, cancel };
}
