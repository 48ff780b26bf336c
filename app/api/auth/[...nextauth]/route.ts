import { authRoute } from "@/lib/auth/route";

/** next-auth's handler behind the body limit, the device cookie and 429s (lib/auth/route.ts). */
export { authRoute as GET, authRoute as POST };
