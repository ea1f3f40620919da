DROP TABLE "mock_cloud_snapshots" CASCADE;--> statement-breakpoint
ALTER TABLE "deployment_backups" DROP COLUMN "snapshot_id";