import type { ReactNode } from "react";
import { ProjectTabs } from "./project-tabs";

export default async function ProjectLayout({ children, params }: { children: ReactNode; params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return (
    <>
      <ProjectTabs projectId={Number(projectId)} />
      {children}
    </>
  );
}
