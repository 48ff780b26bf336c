"use client";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import type { JobView } from "@/lib/server/runtime/jobs";

export const unfinished = (j: JobView) => j.state === "queued" || j.state === "running";

/**
 * The project's jobs of one kind, followed while any runs (a small JSON route polled every
 * 0.7 s); the page is refreshed when one finishes. `add` puts a job just started first;
 * `cancel` asks the server to stop one.
 */
export function useProjectJobs(projectId: number, kind: string, initialJobs: JobView[]) {
  const router = useRouter();
  const [jobs, setJobs] = useState<JobView[]>(initialJobs);
  const running = jobs.some(unfinished);

  const poll = useCallback(async () => {
    const res = await fetch(`/api/projects/${projectId}/jobs?kind=${encodeURIComponent(kind)}`, { cache: "no-store" });
    if (!res.ok) return;
    const json = (await res.json()) as { jobs: JobView[] };
    setJobs((old) => {
      // A job that finished since the last poll: what the page shows changed.
      if (old.some((o) => unfinished(o) && json.jobs.some((n) => n.id === o.id && n.state === "done"))) router.refresh();
      return json.jobs;
    });
  }, [projectId, kind, router]);

  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => void poll().catch(() => {}), 700);
    return () => clearInterval(t);
  }, [running, poll]);

  const add = useCallback((job: JobView) => setJobs((old) => [job, ...old.filter((j) => j.id !== job.id)]), []);
  const cancel = useCallback(
    async (id: number) => {
      await fetch(`/api/projects/${projectId}/jobs/${id}/cancel`, { method: "POST" }).catch(() => {});
      await poll().catch(() => {});
    },
    [projectId, poll],
  );
  return { jobs, add, cancel };
}
