import { useServerForFile } from "../support/users-fixture.js";

useServerForFile();
