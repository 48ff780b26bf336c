"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const TABS = [
  { href: "", label: "Corpus" },
  { href: "/members", label: "Team" },
  { href: "/progress", label: "Progress" },
  { href: "/gold", label: "Gold" },
  { href: "/flags", label: "Flags" },
  { href: "/agreement", label: "Agreement" },
  { href: "/scoring", label: "Scoring" },
  { href: "/training", label: "Training" },
  { href: "/datasets", label: "Datasets" },
  { href: "/judgement", label: "Judgement" },
  { href: "/crowd", label: "Crowd" },
  { href: "/releases", label: "Releases" },
  { href: "/models", label: "Models" },
];

/** The coordinator's sections of one project. */
export function ProjectTabs({ projectId }: { projectId: number }) {
  const pathname = usePathname();
  const base = `/projects/${projectId}`;
  return (
    <nav className="tabs" aria-label="Project">
      {TABS.map((t) => {
        const href = base + t.href;
        const current = t.href === "" ? pathname === base : pathname.startsWith(href);
        return (
          <Link key={t.label} href={href} aria-current={current ? "page" : undefined}>
            {t.label}
          </Link>
        );
      })}
    </nav>
  );
}
